#include "app/commands/asset_paths.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>
#include <system_error>

namespace fs = std::filesystem;

namespace tetlab {

namespace {

bool isRegularFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

}  // namespace

std::vector<std::string> sceneNames(const std::vector<fs::path>& assetDirs) {
  std::set<std::string> names;  // the same preset in two asset folders is listed once
  for (const fs::path& dir : assetDirs) {
    std::error_code ec;
    for (fs::directory_iterator it(dir / "scenes", ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".json" && isRegularFile(it->path())) names.insert(it->path().stem().string());
  }
  return {names.begin(), names.end()};
}

fs::path executableDir(const char* argv0) {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) exe = fs::absolute(argv0 ? argv0 : ".", ec);
  return exe.parent_path();
}

std::vector<fs::path> assetSearchDirs(const fs::path& exeDir) {
  std::vector<fs::path> candidates;
#ifdef TETLAB_ASSET_DIR
  candidates.emplace_back(TETLAB_ASSET_DIR);
#endif
  candidates.push_back(exeDir / "assets");
  candidates.push_back(exeDir.parent_path() / "assets");
  candidates.push_back(exeDir.parent_path() / "share" / "tetlab" / "assets");
  std::vector<fs::path> existing;
  for (const fs::path& dir : candidates) {
    std::error_code ec;
    if (fs::is_directory(dir, ec)) existing.push_back(dir);
  }
  return existing;
}

Result<fs::path> resolveMeshPath(const std::string& userPath, const std::vector<fs::path>& assetDirs) {
  const fs::path given(userPath);
  if (isRegularFile(given)) return given;
  if (given.is_relative()) {
    for (const fs::path& dir : assetDirs) {
      for (const fs::path& candidate : {dir / given, dir / "meshes" / given})
        if (isRegularFile(candidate)) return candidate;
    }
  }
  // Ask the OS why, so the message says "No such file", "Permission denied" or "Is a directory".
  std::string reason;
  std::error_code ec;
  if (fs::is_directory(given, ec)) {
    reason = "it is a folder, not a file";
  } else {
    errno = 0;
    if (std::FILE* f = std::fopen(given.c_str(), "rb")) {
      std::fclose(f);
      reason = "not a regular file";
    } else {
      reason = std::strerror(errno != 0 ? errno : ENOENT);
    }
  }
  return Error{"cannot open mesh '" + userPath + "': " + reason + ": check the path"};
}

Result<fs::path> resolveScenePath(const std::string& typed, const std::vector<fs::path>& assetDirs) {
  std::error_code ec;
  const fs::path given(typed);
  if (fs::exists(given, ec)) {
    if (fs::is_directory(given, ec))
      return Error{"cannot open scene '" + typed + "': it is a folder: give a .json scene file"};
    return given;
  }
  if (given.is_relative()) {
    for (const fs::path& dir : assetDirs)
      for (const fs::path& candidate : {dir / given, dir / "scenes" / given, dir / "scenes" / (typed + ".json")})
        if (fs::is_regular_file(candidate, ec)) return candidate;
  }
  // The list is read from the folders searched, so it never goes stale as presets are added.
  const std::vector<std::string> names = sceneNames(assetDirs);
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
  return Error{"cannot open scene '" + typed + "': no such file: check the path" +
               (known.empty() ? std::string(" (no assets/scenes/ folder was found beside the executable)")
                              : " or give a preset name: " + known)};
}

}  // namespace tetlab
