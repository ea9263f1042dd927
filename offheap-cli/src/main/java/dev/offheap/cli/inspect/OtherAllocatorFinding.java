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

import dev.offheap.account.Bytes;
import java.util.List;
import java.util.Locale;

/**
 * What an allocator other than glibc's malloc holds, and what bounds it. Neither NMT nor glibc's statistics see
 * such an allocator, so the finding never sends the user there: it names the library, and where offheap knows
 * the component, its setting.
 */
final class OtherAllocatorFinding {
    private OtherAllocatorFinding() {}

    static Finding of(Sample now) {
        List<NativeAllocator> allocators = now.memory().otherAllocators();
        long held = now.attribution().part(PartName.OTHER_ALLOCATOR);
        long arenas = now.memory().of(MappingKind.NATIVE_HEAP) + now.memory().of(MappingKind.MALLOC_ARENA);
        StringBuilder text = new StringBuilder();
        List<NativeAllocator> replacing = allocators.stream().filter(a -> !a.linkedIn()).toList();
        List<NativeAllocator> linked = allocators.stream().filter(NativeAllocator::linkedIn).toList();
        String all = String.join(" and ", allocators.stream().map(NativeAllocator::label).toList());
        text.append(String.format(Locale.ROOT, "%s %s %s: the anonymous memory no other part explains (by"
                + " elimination). glibc's arenas hold %s.", all, allocators.size() == 1 ? "holds" : "hold",
                Bytes.human(held), Bytes.human(arenas)));
        for (NativeAllocator a : replacing) {
            text.append(' ').append(a.name()).append(" (").append(a.library()).append(") takes the place of glibc's"
                    + " malloc for the whole process: glibc's fragmentation no longer applies; to see that it works,"
                    + " watch its figure stay flat while the program's own use does.");
        }
        for (NativeAllocator a : linked) {
            NativeAllocator.KnownLibrary component = a.component();
            text.append(' ').append(a.name()).append(" is linked into ").append(a.library()).append(" for ")
                    .append(component == null ? "that library's" : component.product + "'s").append(" own memory:"
                    + " NMT and glibc's malloc statistics never see it, so only this figure shows it. ")
                    .append(component == null ? "The library's own settings bound it." : component.remedy + ".");
        }
        return Finding.info("other-allocator", text.toString());
    }
}
