#pragma once
// Tet results on disk, so reloading a mesh is instant. The key is a 64-bit
// FNV-1a hash of the OBJ file's bytes, every option that changes the result
// and kTetCacheFormatVersion; a file is one small binary blob:
//
//   "TLTETC01" | version | key | path | voxelRes | #verts | #tets | string lengths
//   | reason | switches | tetgen error | float xyz * #verts | uint32 x4 * #tets | FNV-1a of all before
//
// A cache file is never trusted blindly: wrong magic, version, key, size or
// checksum, an out-of-range index, a non-finite coordinate or a non-positive
// tet and the file is deleted and the mesh rebuilt.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/mesh/obj_loader.h"
#include "core/mesh/tetrahedralize.h"
#include "core/result.h"

namespace tetlab {

// Part of every key: bump it whenever the file layout or the pipeline's output changes.
inline constexpr uint32_t kTetCacheFormatVersion = 4;
inline constexpr uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ull;

// FNV-1a, 64-bit (Fowler, Noll, Vo): h = (h xor byte) * 0x100000001b3.
uint64_t fnv1a64(const void* data, size_t bytes, uint64_t hash = kFnvOffsetBasis);

uint64_t tetCacheKey(std::string_view fileBytes, const ObjLoadOptions& load, const TetOptions& tet);
Result<uint64_t> tetCacheKeyForFile(const std::string& path, const ObjLoadOptions& load, const TetOptions& tet);

// $TETLAB_CACHE_DIR, else $XDG_CACHE_HOME/tetlab, else $HOME/.cache/tetlab,
// else a "tetlab-cache" folder in the system temp directory.
std::filesystem::path defaultTetCacheDir();

class TetCache {
 public:
  explicit TetCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // A cached result (fromCache set, checks/timings empty) or nullopt on a
  // miss; a corrupt file is removed and reported through outRejected.
  std::optional<TetResult> load(uint64_t key, std::string* outRejected = nullptr) const;
  // Writes atomically (temp file + rename); the directory is created.
  Status store(uint64_t key, const TetResult& result) const;

  std::filesystem::path pathFor(uint64_t key) const;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

}  // namespace tetlab
