// Binary tet cache (format in tet_cache.h). Reading parses from one byte
// buffer with explicit bounds checks, so a short or corrupted file fails a
// check instead of reading past the end.
#include "core/mesh/tet_cache.h"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "core/atomic_file.h"
#include "core/mesh/tet_cleanup.h"

namespace tetlab {
namespace {

constexpr char kMagic[8] = {'T', 'L', 'T', 'E', 'T', 'C', '0', '1'};
constexpr uint64_t kMaxCount = uint64_t(1) << 30;
constexpr uint32_t kMaxString = 1 << 16;

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

struct Reader {
  const std::string& bytes;
  size_t pos = 0;
  template <class T>
  bool get(T& value) {
    if (bytes.size() - pos < sizeof(T)) return false;
    std::memcpy(&value, bytes.data() + pos, sizeof(T));
    pos += sizeof(T);
    return true;
  }
  bool getBytes(void* dst, size_t n) {
    if (bytes.size() - pos < n) return false;
    if (n > 0) std::memcpy(dst, bytes.data() + pos, n);
    pos += n;
    return true;
  }
};

}  // namespace

uint64_t fnv1a64(const void* data, size_t bytes, uint64_t hash) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

uint64_t tetCacheKey(std::string_view fileBytes, const ObjLoadOptions& load, const TetOptions& tet) {
  // Options are hashed field by field (never struct bytes: padding is undefined).
  std::string o;
  put(o, kTetCacheFormatVersion);
  put(o, load.weldRelativeEpsilon);
  put(o, uint8_t(load.normalizeScale));
  put(o, load.fitSize);
  put(o, int32_t(tet.method));
  put(o, int32_t(tet.targetTets));
  put(o, uint8_t(tet.quality));
  put(o, tet.radiusEdgeRatio);
  put(o, uint8_t(tet.preserveSurface));
  put(o, uint8_t(tet.splitCoarseSurface));
  put(o, uint8_t(tet.simplifyDenseSurface));
  put(o, uint8_t(tet.keepSurfaceExact));
  put(o, uint8_t(tet.validateInput));
  put(o, int32_t(tet.voxelResolution));
  put(o, int32_t(tet.testFault));
  const uint64_t h = fnv1a64(fileBytes.data(), fileBytes.size());
  return fnv1a64(o.data(), o.size(), h);
}

Result<uint64_t> tetCacheKeyForFile(const std::string& path, const ObjLoadOptions& load, const TetOptions& tet) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open the file to compute its cache key"};
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return tetCacheKey(bytes, load, tet);
}

std::filesystem::path defaultTetCacheDir() {
  if (const char* d = std::getenv("TETLAB_CACHE_DIR"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return std::filesystem::path(d) / "tetlab";
  if (const char* d = std::getenv("HOME"); d && *d) return std::filesystem::path(d) / ".cache" / "tetlab";
  std::error_code ec;
  return std::filesystem::temp_directory_path(ec) / "tetlab-cache";
}

std::filesystem::path TetCache::pathFor(uint64_t key) const {
  std::ostringstream name;
  name << std::hex << key << ".tets";
  return dir_ / name.str();
}

Status TetCache::store(uint64_t key, const TetResult& r) const {
  std::string out;
  out.append(kMagic, sizeof kMagic);
  put(out, kTetCacheFormatVersion);
  put(out, key);
  put(out, uint32_t(r.path));
  put(out, int32_t(r.voxelResolution));
  put(out, uint64_t(r.mesh.positions.size()));
  put(out, uint64_t(r.mesh.tets.size()));
  const std::string* strings[3] = {&r.reason, &r.tetgenSwitches, &r.tetgenError};
  for (const std::string* s : strings) put(out, uint32_t(std::min<size_t>(s->size(), kMaxString)));
  for (const std::string* s : strings) out.append(s->data(), std::min<size_t>(s->size(), kMaxString));
  out.append(reinterpret_cast<const char*>(r.mesh.positions.data()), r.mesh.positions.size() * sizeof(glm::vec3));
  out.append(reinterpret_cast<const char*>(r.mesh.tets.data()), r.mesh.tets.size() * sizeof(glm::uvec4));
  put(out, fnv1a64(out.data(), out.size()));

  // Not durable: a cache entry lost to a power cut is recomputed.
  if (Status s = writeFileAtomically(pathFor(key), out, AtomicWriteOptions{.durable = false}); !s)
    return Error{"cannot write the cache file " + pathFor(key).string() + ": " + s.error().message};
  return Ok{};
}

std::optional<TetResult> TetCache::load(uint64_t key, std::string* outRejected) const {
  const std::filesystem::path file = pathFor(key);
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  auto reject = [&](const std::string& why) -> std::optional<TetResult> {
    if (outRejected) *outRejected = "ignored the cache file " + file.string() + ": " + why + "; rebuilding";
    std::error_code ec;
    std::filesystem::remove(file, ec);
    return std::nullopt;
  };

  if (bytes.size() < sizeof kMagic + sizeof(uint64_t)) return reject("it is too short");
  uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - sizeof stored, sizeof stored);
  if (stored != fnv1a64(bytes.data(), bytes.size() - sizeof stored)) return reject("its checksum does not match");
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return reject("it is not a tetlab cache file");

  Reader rd{bytes, sizeof kMagic};
  uint32_t version = 0, path = 0, lens[3] = {0, 0, 0};
  int32_t voxelResolution = 0;
  uint64_t fileKey = 0, nv = 0, nt = 0;
  if (!rd.get(version) || version != kTetCacheFormatVersion) return reject("it has another format version");
  if (!rd.get(fileKey) || fileKey != key) return reject("it belongs to another input");
  if (!rd.get(path) || path > uint32_t(TetPath::VoxelFallback)) return reject("its path field is invalid");
  if (!rd.get(voxelResolution) || !rd.get(nv) || !rd.get(nt)) return reject("its header is truncated");
  if (nv > kMaxCount || nt > kMaxCount || nv == 0 || nt == 0) return reject("its counts are implausible");
  for (uint32_t& len : lens)
    if (!rd.get(len) || len > kMaxString) return reject("its strings are implausible");

  TetResult r;
  r.fromCache = true;
  r.path = TetPath(path);
  r.voxelResolution = voxelResolution;
  std::string* strings[3] = {&r.reason, &r.tetgenSwitches, &r.tetgenError};
  for (int k = 0; k < 3; ++k) {
    strings[k]->resize(lens[k]);
    if (!rd.getBytes(strings[k]->data(), lens[k])) return reject("it is truncated");
  }
  if (bytes.size() - rd.pos != nv * sizeof(glm::vec3) + nt * sizeof(glm::uvec4) + sizeof stored) {
    return reject("its size does not match its counts");
  }
  r.mesh.positions.resize(nv);
  r.mesh.tets.resize(nt);
  rd.getBytes(r.mesh.positions.data(), nv * sizeof(glm::vec3));
  rd.getBytes(r.mesh.tets.data(), nt * sizeof(glm::uvec4));
  for (const glm::vec3& p : r.mesh.positions)
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return reject("it has a non-finite position");
  for (const glm::uvec4& t : r.mesh.tets) {
    if (t.x >= nv || t.y >= nv || t.z >= nv || t.w >= nv) return reject("a tet has an out-of-range vertex");
    if (!(tetSignedVolume(r.mesh, t) > 0.0)) return reject("a tet is not positively oriented");
  }
  return r;
}

}  // namespace tetlab
