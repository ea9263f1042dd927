#!/usr/bin/env bash
#
# Copyright 2026 the offheap authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     https://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
# Puts the Apache License 2.0 source header (the boilerplate of the licence's appendix, as non-ASF projects
# under that licence use it) at the top of every .java file of the modules (offheap-*/), of inspect-accuracy/
# and of tools/ that lacks it. Idempotent: a file that already has it is left alone.
#
#   tools/license-headers.sh           add the header where it is missing, naming each file changed
#   tools/license-headers.sh --check   change nothing; list the files without it, exit 1 if there are any
#
# tools/ReleaseCheck.java fails when a published module's src/main .java file lacks the header.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
YEAR=2026
HEADER="/*
 * Copyright $YEAR the offheap authors
 *
 * Licensed under the Apache License, Version 2.0 (the \"License\");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an \"AS IS\" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
"

check=false
case "${1:-}" in
    --check) check=true ;;
    "") ;;
    *) echo "usage: tools/license-headers.sh [--check]" >&2; exit 2 ;;
esac

# A file has the header if the licence's sentence comes before its first declaration; this is also the test
# tools/ReleaseCheck.java applies.
has_header() {
    awk '/^[[:space:]]*(package|import|module|open module)[[:space:]]/ { exit 1 }
         /Licensed under the Apache License, Version 2\.0/ { found = 1; exit 0 }
         END { exit !found }' "$1"
}

missing=0
changed=0
cd "$ROOT"
while IFS= read -r -d '' file; do
    has_header "$file" && continue
    missing=$((missing + 1))
    if $check; then
        echo "no licence header: $file"
        continue
    fi
    tmp="$(mktemp "$file.XXXXXX")"
    { printf '%s\n' "$HEADER"; cat "$file"; } > "$tmp"
    chmod --reference="$file" "$tmp"
    mv "$tmp" "$file"
    changed=$((changed + 1))
    echo "header added: $file"
done < <(find offheap-* inspect-accuracy tools -name target -prune -o -name '*.java' -type f -print0 | sort -z)

if $check; then
    echo "$missing .java file(s) without the licence header" >&2
    (( missing == 0 ))
else
    echo "headers added to $changed .java file(s)" >&2
fi
