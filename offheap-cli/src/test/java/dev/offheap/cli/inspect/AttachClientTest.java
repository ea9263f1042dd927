/*
 * Copyright 2026 the offheap authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The attach client's decisions, from texts: the request, the signal masks, the namespace pid, the disabling flag. */
class AttachClientTest {

    @Test
    void aVersion1RequestIsVersionCommandAndAlwaysThreeArgumentsEachEndedByANul() {
        assertThat(text(AttachClient.request("jcmd", "GC.heap_info"))).isEqualTo("1\0jcmd\0GC.heap_info\0\0\0");
        assertThat(text(AttachClient.request("agentProperties"))).isEqualTo("1\0agentProperties\0\0\0\0");
        assertThat(text(AttachClient.request("setflag", "A", null, "C"))).isEqualTo("1\0setflag\0A\0\0C\0");
        assertThat(AttachClient.request("jcmd", "é")).as("UTF-8").hasSize(2 + 5 + 3 + 2);
    }

    @Test
    void moreThanThreeArgumentsOrANulAreRefused() {
        assertThatThrownBy(() -> AttachClient.request("x", "1", "2", "3", "4")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AttachClient.request("jcmd", "VM.version\0help")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sigquitIsSignalledOnlyWhenCaughtAndNotIgnored() {
        // a JVM: SIGQUIT (bit 2) caught, among others
        assertThat(AttachClient.catchesQuit(status("0000000000000000", "0000000000000000", "0000000000000000",
                "00000001000054cf"))).isTrue();
        // caught but ignored
        assertThat(AttachClient.catchesQuit(status("0000000000000000", "0000000000000000", "0000000000000004",
                "0000000000000004"))).isFalse();
        // not caught (-Xrs, a shell, a JVM still starting): SIGQUIT would kill it or dump a core
        assertThat(AttachClient.catchesQuit(status("0000000000000000", "0000000000000000", "0000000000000000",
                "00000001000054cb"))).isFalse();
        // blocked for now does not matter, as for the JDK
        assertThat(AttachClient.catchesQuit(status("0000000000000000", "0000000000000004", "0000000000000000",
                "0000000000000004"))).isTrue();
        assertThat(AttachClient.catchesQuit("Name:\tjava\n")).isFalse();
    }

    @Test
    void theNamespacePidIsTheLastOfNsPid() {
        assertThat(AttachClient.namespacePid("Name:\tjava\nNSpid:\t4242\n", 4242)).isEqualTo(4242);
        assertThat(AttachClient.namespacePid("Name:\tjava\nNSpid:\t4242\t17\t1\n", 4242)).isEqualTo(1);
        assertThat(AttachClient.namespacePid("Name:\tjava\nPid:\t4242\n", 4242)).as("kernel before 4.1").isEqualTo(4242);
    }

    @Test
    void theLastDisableAttachMechanismOptionWins() {
        assertThat(AttachClient.attachDisabled(List.of("java", "-Xmx1g", "Main"))).isFalse();
        assertThat(AttachClient.attachDisabled(List.of("java", "-XX:+DisableAttachMechanism", "Main"))).isTrue();
        assertThat(AttachClient.attachDisabled(List.of("-XX:+DisableAttachMechanism", "java",
                "-XX:-DisableAttachMechanism", "Main"))).isFalse();
        assertThat(AttachClient.attachDisabled(List.of("java", "-XX:-DisableAttachMechanism", "Main",
                "-XX:+DisableAttachMechanism"))).isTrue();
        assertThat(AttachClient.attachDisabled(List.of("java", "-XX:+DisableAttachMechanismX"))).isFalse();
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static String status(String pending, String blocked, String ignored, String caught) {
        return "Name:\tjava\nSigQ:\t0/95589\nSigPnd:\t" + pending + "\nShdPnd:\t0000000000000000\nSigBlk:\t" + blocked
                + "\nSigIgn:\t" + ignored + "\nSigCgt:\t" + caught + "\nCapInh:\t0000000000000000\n";
    }
}
