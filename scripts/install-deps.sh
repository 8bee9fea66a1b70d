#!/usr/bin/env bash
# Installs the Debian 12 packages tetlab needs, only those missing (idempotent,
# non-interactive). Runs as root, or through sudo when not root.
#   scripts/install-deps.sh         everything: the sandbox, the tests, fuzzing, diagnostics (test.sh)
#   scripts/install-deps.sh --run   only what building and running the sandbox needs (run.sh)
set -euo pipefail
# Building and running the sandbox, the headless demo included (Xvfb, ffmpeg).
# GoogleTest is here because configuring the tree finds it (tests/CMakeLists.txt).
RUN_PACKAGES=(
  cmake g++ make pkg-config ccache
  libglfw3-dev libimgui-dev libstb-dev libglm-dev libepoxy-dev libxrandr-dev
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers pocl-opencl-icd
  libtinyobjloader-dev libtet1.5-dev nlohmann-json3-dev libcli11-dev libgtest-dev
  xvfb xauth libgl1-mesa-dri ffmpeg fonts-dejavu-core
)
# The test command's extras: clang with libFuzzer (scripts/fuzz.sh) and the
# OpenCL/GL diagnostics (clinfo, glxinfo).
TEST_PACKAGES=(clang-14 libclang-rt-14-dev clinfo mesa-utils)
case "${1:-}" in
  --run) PACKAGES=("${RUN_PACKAGES[@]}") ;;
  "") PACKAGES=("${RUN_PACKAGES[@]}" "${TEST_PACKAGES[@]}") ;;
  *) echo "install-deps: unknown option '$1'; use --run or nothing" >&2; exit 2 ;;
esac
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
