#!/usr/bin/env bash
# The run command: install what is missing, build, open the sandbox with the
# default scene. Without a display, run the default scene headless under Xvfb
# and write a short demo video (MP4 via ffmpeg, which install-deps provides;
# a PNG sequence if ffmpeg is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --run  # test.sh installs the test-only packages
scripts/build.sh release tetlab  # the sandbox alone: test.sh builds the rest
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec build/tetlab "$@"
fi
out="out/demo"
mkdir -p "$out"
echo "run: no display found; rendering the default scene headless under Xvfb into $out/"
if command -v ffmpeg > /dev/null; then target="$out/demo.mp4"; else target="$out/frames"; fi
xvfb-run -a -s "-screen 0 1280x800x24" build/tetlab --headless --frames 240 \
  --screenshot "$out/last.png" --record "$target" "$@"
echo "run: wrote the demo $target and its last frame $out/last.png"
