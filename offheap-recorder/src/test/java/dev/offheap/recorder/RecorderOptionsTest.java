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

package dev.offheap.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecorderOptionsTest {
    @Test
    void defaultsSampleEveryFiveSecondsForAnHourAndReportAtThreeQuartersAndNinetyPercent() {
        RecorderOptions o = RecorderOptions.parse(null);
        assertThat(o.interval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.history()).isEqualTo(720);
        assertThat(o.thresholds()).containsExactly(75, 90);
        assertThat(o.limit()).isEqualTo(-1);
        assertThat(o.signal()).isEqualTo("USR2");
        assertThat(o.directory()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
        assertThat(RecorderOptions.parse("  ").toString()).isEqualTo(o.toString());
    }

    @Test
    void readsEveryKey() {
        RecorderOptions o = RecorderOptions.parse("dir=/var/log/x, interval=500ms,history=10,thresholds=90:50:90,"
                + "limit=2g,signal=SIGUSR1");
        assertThat(o.directory()).isEqualTo(Path.of("/var/log/x"));
        assertThat(o.interval()).isEqualTo(Duration.ofMillis(500));
        assertThat(o.history()).isEqualTo(10);
        assertThat(o.thresholds()).containsExactly(50, 90);
        assertThat(o.limit()).isEqualTo(2L << 30);
        assertThat(o.signal()).isEqualTo("USR1");
        assertThat(RecorderOptions.parse("interval=2m").interval()).isEqualTo(Duration.ofMinutes(2));
        assertThat(RecorderOptions.parse("interval=7").interval()).isEqualTo(Duration.ofSeconds(7));
        assertThat(RecorderOptions.parse("thresholds=none").thresholds()).isEmpty();
        assertThat(RecorderOptions.parse("limit=512m").limit()).isEqualTo(512L << 20);
        assertThat(RecorderOptions.parse("limit=1000").limit()).isEqualTo(1000);
        assertThat(RecorderOptions.parse("limit=3k").limit()).isEqualTo(3072);
        assertThat(RecorderOptions.parse("limit=1t").limit()).isEqualTo(1L << 40);
        assertThat(RecorderOptions.parse("signal=none").signal()).isEqualTo("NONE");
        assertThat(o.toString()).isEqualTo("dir=/var/log/x,interval=500ms,history=10,thresholds=50:90,limit=2147483648,signal=USR1");
    }

    @Test
    void refusesWhatItCannotReadNamingIt() {
        assertThatThrownBy(() -> RecorderOptions.parse("dir")).hasMessageContaining("'dir' is not key=value");
        assertThatThrownBy(() -> RecorderOptions.parse("=x")).hasMessageContaining("'=x' is not key=value");
        assertThatThrownBy(() -> RecorderOptions.parse("color=red")).hasMessageContaining("unknown option 'color'");
        assertThatThrownBy(() -> RecorderOptions.parse("interval=fast")).hasMessageContaining("interval 'fast' is not a duration");
        assertThatThrownBy(() -> RecorderOptions.parse("interval=50ms")).hasMessageContaining("50 ms is below 100 ms");
        assertThatThrownBy(() -> RecorderOptions.parse("history=1")).hasMessageContaining("history 1 keeps fewer than 2");
        assertThatThrownBy(() -> RecorderOptions.parse("history=many")).hasMessageContaining("history 'many' is not a number");
        assertThatThrownBy(() -> RecorderOptions.parse("thresholds=0:50")).hasMessageContaining("threshold 0 % is not in 1..100");
        assertThatThrownBy(() -> RecorderOptions.parse("thresholds=101")).hasMessageContaining("threshold 101 %");
        assertThatThrownBy(() -> RecorderOptions.parse("limit=-1g")).hasMessageContaining("limit '-1g' is not a size");
        assertThatThrownBy(() -> RecorderOptions.parse("limit=g")).hasMessageContaining("limit 'g' is not a size");
        assertThatThrownBy(() -> RecorderOptions.parse("limit=99999999999t")).hasMessageContaining("is not a size");
    }

    @Test
    void thresholdsFireOnceOnTheWayUpAndAgainOnlyAfterFallingFivePointsBelow() {
        Thresholds t = new Thresholds(List.of(90, 75));
        assertThat(t.cross(-1)).isEqualTo(-1);
        assertThat(t.cross(0.50)).isEqualTo(-1);
        assertThat(t.cross(0.75)).isEqualTo(75);
        assertThat(t.cross(0.80)).isEqualTo(-1);
        assertThat(t.cross(0.71)).as("within five points: not armed again").isEqualTo(-1);
        assertThat(t.cross(0.76)).isEqualTo(-1);
        assertThat(t.cross(0.69)).isEqualTo(-1);
        assertThat(t.cross(0.75)).as("armed again below 70 %").isEqualTo(75);
        assertThat(t.cross(0.95)).isEqualTo(90);
        assertThat(t.cross(1.20)).isEqualTo(-1);
        Thresholds jump = new Thresholds(List.of(75, 90));
        assertThat(jump.cross(0.93)).as("both crossed at once: the higher, one report").isEqualTo(90);
        assertThat(jump.cross(0.80)).isEqualTo(-1);
        assertThat(new Thresholds(List.of()).cross(1.0)).isEqualTo(-1);
    }

    @Test
    void theEdgesOfEachOptionAreAccepted() {
        assertThat(RecorderOptions.parse("history=2").history()).isEqualTo(2);
        assertThat(RecorderOptions.parse("interval=100ms").interval()).isEqualTo(Duration.ofMillis(100));
        assertThat(RecorderOptions.parse("thresholds=1:100").thresholds()).containsExactly(1, 100);
        assertThat(RecorderOptions.parse("thresholds=none").toString()).contains("thresholds=none,");
        assertThat(RecorderOptions.parse("limit=1").limit()).isEqualTo(1);
        assertThatThrownBy(() -> RecorderOptions.parse("limit=0")).hasMessageContaining("limit '0' is not a size");
        assertThat(RecorderOptions.duration("3s")).isEqualTo(Duration.ofSeconds(3));
        assertThat(RecorderOptions.duration("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(RecorderOptions.bytes("2k")).isEqualTo(2048);
    }

    @Test
    void thresholdsFireAtTheirValueAndAreArmedAgainOnlyBelowFivePointsUnder() {
        Thresholds t = new Thresholds(List.of(80));
        assertThat(t.cross(0.80)).isEqualTo(80);
        assertThat(t.cross(0.75)).as("exactly five points under: not armed yet").isEqualTo(-1);
        assertThat(t.cross(0.80)).isEqualTo(-1);
        assertThat(t.cross(0.7499)).isEqualTo(-1);
        assertThat(t.cross(0.80)).as("armed below 75 %").isEqualTo(80);
        Thresholds unsorted = new Thresholds(List.of(90, 60));
        assertThat(unsorted.cross(0.95)).as("the highest of those crossed").isEqualTo(90);
    }
}
