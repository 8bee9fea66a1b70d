#!/usr/bin/env bash
# Installs the Debian 12 packages tetlab needs, only those missing (idempotent,
# non-interactive). Runs as root, or through sudo when not root.
set -euo pipefail
PACKAGES=(
  cmake g++ make pkg-config ccache
  libglfw3-dev libimgui-dev libstb-dev libglm-dev libepoxy-dev libxrandr-dev
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers pocl-opencl-icd clinfo
  libtinyobjloader-dev libtet1.5-dev nlohmann-json3-dev libcli11-dev libgtest-dev
  xvfb xauth libgl1-mesa-dri mesa-utils ffmpeg fonts-dejavu-core
  clang-14 libclang-rt-14-dev
)
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
