#pragma once
// Files the user must not lose (saved scenes, exported OBJ frames, the tet
// cache) are replaced whole or not at all: the bytes go to a temporary file in
// the same folder (so the rename cannot cross file systems), which rename(2)
// then puts in place. An interrupted process, a full disk or a failed write
// leaves the old file as it was and at most a temporary that the next write
// of the same file replaces; a reader never sees half a file.
#include <filesystem>
#include <string_view>

#include "core/result.h"

namespace tetlab {

struct AtomicWriteOptions {
  // fsync the data before the rename, so a power loss cannot leave the new
  // name on an empty file. Costs a disk flush per file: on for scene files,
  // off for per-frame exports (a frame lost to a power cut is re-exported).
  bool durable = true;
};

// Writes `bytes` to `path` atomically (above); creates the parent folder. The
// error says what failed and what to do, without the file name: callers name
// the file in their own message ("cannot save the scene to 'x': ...").
Status writeFileAtomically(const std::filesystem::path& path, std::string_view bytes,
                           const AtomicWriteOptions& options = {});

}  // namespace tetlab
