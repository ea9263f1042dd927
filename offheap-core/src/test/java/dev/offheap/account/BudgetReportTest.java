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

package dev.offheap.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The report's text, literally: its one-line holdings and its format, with an owner's opening stack cut at
 * 16 frames.
 */
class BudgetReportTest {

    /** A child holds its unused reservation at the parent: nothing there is charged through no owner. */
    @Test
    void aChildsUnusedReservationIsAttributedToTheChild() {
        MemoryBudget root = MemoryBudget.root("process", 10_000);
        MemoryBudget store = root.child("store", 2000, 1000);
        store.charge(300);

        BudgetReport report = root.report();
        assertThat(report.used()).isEqualTo(1000);
        assertThat(report.unattributed()).isZero();
        assertThat(report.children()).singleElement().satisfies(child -> {
            assertThat(child.path()).isEqualTo("process/store");
            assertThat(child.used()).isEqualTo(300);
            assertThat(child.unattributed()).isEqualTo(300);
        });
        assertThat(report.holdings()).isEqualTo("'process/store' holds 300 bytes through no owner");
        assertThat(report.format()).isEqualTo("""
                memory budget 'process': 1000 bytes charged; peak 1000 B, limit 9.8 KiB, reservation 0 B
                  memory budget 'process/store': 300 bytes charged; peak 300 B, limit 2.0 KiB, reservation 1000 B
                    charged directly, through no owner: 300 bytes
                """);
        store.release(300);
        assertThat(root.report().holdings()).as("the unused reservation is nobody's charge")
                .isEqualTo("");
    }

    @Test
    void holdingsNameEachOwnerThenWhatNoOwnerHoldsThenTheChildren() {
        BudgetReport io = new BudgetReport("process/io", 4096, 4096, 8192, 0,
                List.of(owner("buffer pool io", 4096, 0)), List.of(), 0);
        BudgetReport report = new BudgetReport("process", 4103, 4103, 10_000, 0, List.of(), List.of(io), 7);
        assertThat(report.holdings()).isEqualTo("'process' holds 7 bytes through no owner;"
                + " 'process/io' owner 'buffer pool io' holds 4.0 KiB (4096 bytes)");
        assertThat(io.holdings()).isEqualTo("'process/io' owner 'buffer pool io' holds 4.0 KiB (4096 bytes)");
        assertThat(new BudgetReport("idle", 0, 0, 10, 0, List.of(), List.of(), 0).holdings()).isEmpty();
    }

    @Test
    void anOwnersStackOf16FramesIsShownWhole() {
        BudgetReport report = new BudgetReport("app", 4096, 8192, 1L << 20, 0,
                List.of(owner("pool", 4096, 16)), List.of(), 0);
        assertThat(report.format()).isEqualTo(header() + frames(16));
        assertThat(report.toString()).isEqualTo(report.format());
    }

    @Test
    void anOwnersStackIsCutAfter16FramesSayingHowManyMore() {
        BudgetReport one = new BudgetReport("app", 4096, 8192, 1L << 20, 0,
                List.of(owner("pool", 4096, 17)), List.of(), 0);
        assertThat(one.format()).isEqualTo(header() + frames(16) + "      ... 1 more\n");
        BudgetReport many = new BudgetReport("app", 4096, 8192, 1L << 20, 0,
                List.of(owner("pool", 4096, 20)), List.of(), 0);
        assertThat(many.format()).isEqualTo(header() + frames(16) + "      ... 4 more\n");
    }

    @Test
    void anOwnerWithFewFramesOrNoneShowsWhatThereIs() {
        BudgetReport three = new BudgetReport("app", 4096, 8192, 1L << 20, 0,
                List.of(owner("pool", 4096, 3)), List.of(), 0);
        assertThat(three.format()).isEqualTo(header() + frames(3));
        BudgetReport none = new BudgetReport("app", 4096, 8192, 1L << 20, 0,
                List.of(owner("pool", 4096, 0)), List.of(), 0);
        assertThat(none.format()).isEqualTo(header());
    }

    @Test
    void anOwnerShowsItsNameBudgetAndBalance() {
        MemoryBudget root = MemoryBudget.root("process", 1000);
        BudgetOwner owner = root.child("io", 500).owner("pool");
        owner.charge(10);
        assertThat(owner.toString()).isEqualTo("BudgetOwner[pool of process/io: 10 bytes]");
        owner.release(10);
        assertThat(owner.toString()).isEqualTo("BudgetOwner[pool of process/io: 0 bytes]");
    }

    private static BudgetReport.Owner owner(String name, long outstanding, int frames) {
        List<StackTraceElement> stack = new ArrayList<>();
        IntStream.range(0, frames).forEach(i -> stack.add(new StackTraceElement("com.example.App", "m" + i,
                "App.java", i + 1)));
        return new BudgetReport.Owner(name, outstanding, "main", stack);
    }

    private static String header() {
        return "memory budget 'app': 4.0 KiB (4096 bytes) charged; peak 8.0 KiB, limit 1.0 MiB, reservation 0 B\n"
                + "  owner 'pool': 4.0 KiB (4096 bytes) outstanding; opened by thread 'main' at\n";
    }

    /** The first {@code count} frames as format() shows them: com.example.App.m0(App.java:1) and on. */
    private static String frames(int count) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            out.append("      at com.example.App.m").append(i).append("(App.java:").append(i + 1).append(")\n");
        }
        return out.toString();
    }
}
