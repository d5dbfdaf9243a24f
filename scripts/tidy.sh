#!/usr/bin/env bash
# clang-tidy-19 over the library and CLI sources (.clang-tidy), compared with tidy-baseline.txt:
# fails when any (file, check) pair has more findings than the baseline, printing the new ones.
#   bash scripts/tidy.sh          check every file
#   bash scripts/tidy.sh update   rewrite the baseline (after fixing findings, to lower it)
#   bash scripts/tidy.sh check BASE SHARE   CI: the files changed since BASE (a commit), plus the
#       share 1/SHARE of the others whose turn it is (by HEAD's commit count), so that every file
#       is checked at least every SHARE runs and a run costs a fraction of the whole
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-check}
base_rev=${2:-}
share=${3:-1}
bash scripts/deps.sh
dpkg-query -W -f='${Status}' clang-tidy-19 2>/dev/null | grep -q "install ok installed" ||
  { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-tidy-19 >/dev/null; }
cmake -S . -B build-tidy -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUADVISOR_BUILD_TESTS=OFF \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
git ls-files 'src/*.cc' >build-tidy/all-files.txt
if [ "$mode" = check ] && [ -n "$base_rev" ] && [ "$share" -gt 1 ]; then
  turn=$(( $(git rev-list --count HEAD) % share ))
  # Changed since the base: a .cc itself, or one that includes a changed header (src/ or
  # include/) by name: the files that use a header's declarations include it (include what you
  # use), and a finding inside the header is reported through any of them. Files that reach it
  # only through another header wait for their turn in the share below (at most SHARE runs); a
  # header no .cc includes by name brings the .cc files of its folder.
  git diff --name-only "$base_rev" -- 'src/*.cc' 'src/*.h' 'include/*.h' >build-tidy/changed.txt 2>/dev/null || true
  { grep '\.cc$' build-tidy/changed.txt | grep -Fx -f build-tidy/all-files.txt || true
    grep '\.h$' build-tidy/changed.txt | while read -r path; do
      users=$(git grep -l -F "#include \"$(echo "$path" | sed -E 's#^(include|src)/##')\"" -- 'src/*.cc' || true)
      # A header no .cc includes by name: the .cc files of its folder.
      if [ -n "$users" ]; then echo "$users"; else grep -F "$(dirname "$path")/" build-tidy/all-files.txt || true; fi
    done
    awk -v n="$share" -v t="$turn" '(NR - 1) % n == t' build-tidy/all-files.txt
  } | sed '/^$/d' | sort -u >build-tidy/files.txt
  echo "tidy: $(wc -l <build-tidy/files.txt) of $(wc -l <build-tidy/all-files.txt) files (changed since ${base_rev:0:7} or including a changed header, and turn $turn of $share)"
else
  cp build-tidy/all-files.txt build-tidy/files.txt
fi
xargs -P2 -n6 clang-tidy-19 -p build-tidy --quiet <build-tidy/files.txt \
  >build-tidy/tidy.log 2>/dev/null || true
python3 - "$mode" "$PWD" <<'PY'
import collections, re, sys
mode, root = sys.argv[1], sys.argv[2] + "/"
pat = re.compile(r"^(/[^:]+):(\d+):(\d+): warning: (.*) \[([\w.,-]+)\]$")
seen, lines = set(), collections.defaultdict(list)
for line in open("build-tidy/tidy.log", errors="replace"):
    m = pat.match(line.rstrip("\n"))
    if not m or not m.group(1).startswith(root):
        continue
    path = m.group(1)[len(root):]
    key = (path, m.group(2), m.group(3), m.group(5))
    if key in seen:  # a header's finding is reported once per translation unit
        continue
    seen.add(key)
    lines[(path, m.group(5))].append(f"{path}:{m.group(2)}: {m.group(4)} [{m.group(5)}]")
counts = {k: len(v) for k, v in lines.items()}
total = sum(counts.values())
if mode == "update":
    with open("tidy-baseline.txt", "w") as f:
        f.write("# clang-tidy findings accepted today (file check count); lower it as they are fixed\n")
        for (path, check), n in sorted(counts.items()):
            f.write(f"{path} {check} {n}\n")
    print(f"tidy: baseline written, {total} findings")
    sys.exit(0)
base = {}
for line in open("tidy-baseline.txt"):
    if line.startswith("#") or not line.strip():
        continue
    path, check, n = line.split()
    base[(path, check)] = int(n)
new = [(k, n) for k, n in counts.items() if n > base.get(k, 0)]
for (path, check), n in sorted(new):
    print(f"tidy: {path} [{check}]: {n} findings, baseline {base.get((path, check), 0)}")
    for l in lines[(path, check)]:
        print("  " + l)
print(f"tidy: {total} findings ({sum(base.values())} in the baseline), {len(new)} pairs above it")
sys.exit(1 if new else 0)
PY
