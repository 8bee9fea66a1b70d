#!/usr/bin/env bash
# Gathers the fuzz targets' seed corpus into OUT/{obj,scene,cli} (a fresh
# folder: nothing in the repository is written). Seeds, each under 100 KB:
#   obj    assets/meshes/*.obj, the OBJ texts written inline by the tests
#          (string literals holding 'v ' statements), tests/fuzz/corpus/obj
#   scene  assets/scenes/*.json, the JSON raw strings R"(...)" of the tests,
#          tests/fuzz/corpus/scene
#   cli    tests/fuzz/corpus/cli (one argument per line)
# plus every kept crash in tests/fuzz/regressions/<target>. Files are named by
# their SHA-1, as libFuzzer names its own, so duplicates collapse. Also writes
# the dictionaries OUT/<target>.dict (below).
#
#   tests/fuzz/gather_seeds.sh OUT
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:?usage: gather_seeds.sh OUT}"
max_bytes=$((100 * 1024))
mkdir -p "$out/obj" "$out/scene" "$out/cli"

# add TARGET FILE: copy FILE in under its hash when small enough.
add() {
  local target="$1" file="$2" size
  [ -f "$file" ] || return 0
  size=$(stat -c %s "$file")
  [ "$size" -le "$max_bytes" ] || return 0
  cp "$file" "$out/$target/$(sha1sum "$file" | cut -d' ' -f1)"
}

# extract KIND TARGET SOURCE...: the tests' inline inputs, one file each.
#   obj:   runs of adjacent "..." literals (C escapes undone) holding an OBJ 'v' statement
#   scene: raw strings R"(...)" that start like JSON ({ or [)
extract() {
  local kind="$1" target="$2" tmp
  shift 2
  tmp="$(mktemp -d)"
  perl -0777 -e '
    my ($kind, $dir) = (shift, shift);
    my $n = 0;
    for my $file (@ARGV) {
      open(my $fh, "<", $file) or next;
      local $/; my $src = <$fh>;
      my @found;
      if ($kind eq "obj") {
        while ($src =~ /((?:"(?:[^"\\\n]|\\.)*"\s*)+)/g) {
          my $run = $1; my $text = "";
          while ($run =~ /"((?:[^"\\\n]|\\.)*)"/g) { $text .= $1; }
          my %esc = (n => "\n", t => "\t", r => "\r", 0 => "\0", "\\" => "\\", "\"" => "\"", "'"'"'" => "'"'"'");
          $text =~ s/\\(.)/exists $esc{$1} ? $esc{$1} : $1/ge;
          push @found, $text if $text =~ /(^|\n)v /;
        }
      } else {
        while ($src =~ /R"\((.*?)\)"/gs) { my $t = $1; push @found, $t if $t =~ /^\s*[\{\[]/; }
      }
      for my $text (@found) {
        open(my $o, ">", sprintf("%s/%05d", $dir, $n++)) or die;
        print $o $text; close($o);
      }
    }' "$kind" "$tmp" "$@"
  for f in "$tmp"/*; do add "$target" "$f"; done
  rm -rf "$tmp"
}

for f in "$root"/assets/meshes/*.obj; do add obj "$f"; done
for f in "$root"/assets/scenes/*.json; do add scene "$f"; done
extract obj obj "$root"/tests/core/*.cpp "$root"/tests/app/*.cpp
extract scene scene "$root"/tests/core/*.cpp "$root"/tests/app/*.cpp
for target in obj scene cli; do
  for f in "$root/tests/fuzz/corpus/$target"/* "$root/tests/fuzz/regressions/$target"/*; do add "$target" "$f"; done
done

# Dictionaries OUT/<target>.dict: tests/fuzz/<target>.dict plus the words the
# code itself matches, so a renamed key or flag never leaves the fuzzer behind.
#   scene: every single-word literal of core/scene (keys, enum names) as a JSON string
#   cli:   every single-word literal of the command line (flags, subcommands, names)
words() { grep -ohE '"(--)?[A-Za-z_][A-Za-z0-9_-]*"' "$@" | sort -u; }
cp "$root/tests/fuzz/obj.dict" "$out/obj.dict"
{ cat "$root/tests/fuzz/scene.dict"; words "$root"/core/scene/*.cpp | sed 's/^"\(.*\)"$/"\\"\1\\""/'; } > "$out/scene.dict"
{ cat "$root/tests/fuzz/cli.dict"; words "$root"/app/commands/cli.cpp "$root"/core/scene/enum_names.cpp; } > "$out/cli.dict"
for target in obj scene cli; do
  echo "gather_seeds: $target: $(find "$out/$target" -type f | wc -l) seeds, $(grep -c '^"' "$out/$target.dict") dictionary words"
done
