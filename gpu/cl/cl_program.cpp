#include "gpu/cl/cl_program.h"

#include <algorithm>

#include "gpu/cl/cl_error.h"
#include "gpu/cl/compiler_log.h"

namespace tetlab {

namespace {

// Lexical normalisation of "a/b/../c" -> "a/c"; names never leave shaders/.
Result<std::string> normalizeName(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t end = path.find('/', pos);
    if (end == std::string_view::npos) end = path.size();
    std::string_view part = path.substr(pos, end - pos);
    if (part == "..") {
      if (parts.empty()) return Error{"include path \"" + std::string(path) + "\" leaves the shader folder"};
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    pos = end + 1;
  }
  std::string out;
  for (std::string_view p : parts) {
    if (!out.empty()) out += '/';
    out += p;
  }
  return out;
}

std::string folderOf(const std::string& name) {
  size_t slash = name.rfind('/');
  return slash == std::string::npos ? std::string() : name.substr(0, slash + 1);
}

std::string_view trimLeft(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// Recognises "#  include" / "#pragma once" at the start of a line.
bool directiveIs(std::string_view line, std::string_view word, std::string_view* outRest) {
  line = trimLeft(line);
  if (line.empty() || line.front() != '#') return false;
  line = trimLeft(line.substr(1));
  if (line.substr(0, word.size()) != word) return false;
  std::string_view rest = line.substr(word.size());
  if (!rest.empty() && rest.front() != ' ' && rest.front() != '\t' && rest.front() != '"' && rest.front() != '<')
    return false;
  *outRest = trimLeft(rest);
  return true;
}

bool isPragmaOnce(std::string_view line) {
  std::string_view rest;
  if (!directiveIs(line, "pragma", &rest)) return false;
  return rest.substr(0, 4) == "once";
}

// Tracks whether the start of the next line is inside a /* */ comment.
// String literals are ignored: kernels do not contain "/*" in strings.
bool endsInsideComment(std::string_view line, bool inside) {
  for (size_t i = 0; i < line.size(); ++i) {
    if (inside) {
      if (line[i] == '*' && i + 1 < line.size() && line[i + 1] == '/') inside = false, ++i;
    } else if (line[i] == '/' && i + 1 < line.size()) {
      if (line[i + 1] == '/') return false;
      if (line[i + 1] == '*') inside = true, ++i;
    }
  }
  return inside;
}

struct Expander {
  const SourceLoader& load;
  int maxDepth;
  std::vector<std::string> stack;  // include chain, for cycle detection
  std::vector<std::string> onceDone;
  ExpandedSource out;

  Status expand(const std::string& name, const std::string& includedFrom, int depth) {
    if (depth > maxDepth)
      return Error{includedFrom + ": includes nested deeper than " + std::to_string(maxDepth) +
                   " levels (at \"" + name + "\"): flatten the include chain"};
    if (std::find(stack.begin(), stack.end(), name) != stack.end()) {
      std::string chain;
      for (const std::string& s : stack) chain += s + " -> ";
      return Error{"include cycle: " + chain + name + ": remove one of these #include lines"};
    }
    if (std::find(onceDone.begin(), onceDone.end(), name) != onceDone.end()) return Ok{};

    auto text = load(name);
    if (!text) return Error{(includedFrom.empty() ? std::string() : includedFrom + ": ") + text.error().message};
    if (std::find(out.files.begin(), out.files.end(), name) == out.files.end()) out.files.push_back(name);

    stack.push_back(name);
    out.text += "#line 1 \"" + name + "\"\n";
    std::string_view src(*text);
    int lineNo = 0;
    bool inComment = false;
    size_t pos = 0;
    while (pos < src.size()) {
      size_t end = src.find('\n', pos);
      if (end == std::string_view::npos) end = src.size();
      std::string_view line = src.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      pos = end + 1;
      ++lineNo;
      const std::string where = name + ":" + std::to_string(lineNo);

      std::string_view rest;
      if (!inComment && isPragmaOnce(line)) {
        onceDone.push_back(name);
        out.text += "\n";  // keep line numbers
        continue;
      }
      if (!inComment && directiveIs(line, "include", &rest)) {
        if (rest.empty() || rest.front() != '"')
          return Error{where + ": only #include \"file\" is supported in kernels (system headers do not exist "
                               "in OpenCL C): " + std::string(line)};
        size_t close = rest.find('"', 1);
        if (close == std::string_view::npos)
          return Error{where + ": unterminated #include \"...\": " + std::string(line)};
        const std::string target(rest.substr(1, close - 1));
        // Relative to the including file's folder, then to cl/, then to shaders/.
        std::vector<std::string> tried;
        std::string resolved;
        for (const std::string& base : {folderOf(name), std::string("cl/"), std::string()}) {
          auto candidate = normalizeName(base + target);
          if (!candidate) return Error{where + ": " + candidate.error().message};
          if (std::find(tried.begin(), tried.end(), *candidate) != tried.end()) continue;
          tried.push_back(*candidate);
          if (load(*candidate)) {
            resolved = *candidate;
            break;
          }
        }
        if (resolved.empty()) {
          std::string list;
          for (const std::string& t : tried) list += (list.empty() ? "" : ", ") + t;
          return Error{where + ": cannot find included file \"" + target + "\" (tried " + list + ")"};
        }
        Status st = expand(resolved, where, depth + 1);
        if (!st) return st;
        out.text += "#line " + std::to_string(lineNo + 1) + " \"" + name + "\"\n";
        continue;
      }
      inComment = endsInsideComment(line, inComment);
      out.text.append(line);
      out.text += '\n';
    }
    stack.pop_back();
    return Ok{};
  }
};

std::string trimLog(std::string log) {
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n' || log.back() == ' ')) log.pop_back();
  return log;
}

}  // namespace

Result<ExpandedSource> expandIncludes(const std::string& mainName, const SourceLoader& load, int maxDepth) {
  auto normalized = normalizeName(mainName);
  if (!normalized) return normalized.error();
  Expander ex{load, maxDepth, {}, {}, {}};
  Status st = ex.expand(*normalized, "", 0);
  if (!st) return st.error();
  return std::move(ex.out);
}

Result<BuiltProgram> buildProgram(const cl::Context& context, const cl::Device& device, const std::string& source,
                                  std::string_view name, std::string_view options) {
  std::string deviceName;
  device.getInfo(CL_DEVICE_NAME, &deviceName);
  while (!deviceName.empty() && deviceName.back() == '\0') deviceName.pop_back();

  cl_int err = CL_SUCCESS;
  cl::Program program(context, source, false, &err);
  if (err != CL_SUCCESS) return clError("creating OpenCL program " + std::string(name), err);

  std::string allOptions = kBaseBuildOptions;
  if (!options.empty()) allOptions += " " + std::string(options);
  const cl_int buildErr = program.build(std::vector<cl::Device>{device}, allOptions.c_str());

  std::string log;
  program.getBuildInfo(device, CL_PROGRAM_BUILD_LOG, &log);
  log = attributeCompilerLog(trimLog(std::move(log)), source);
  if (buildErr != CL_SUCCESS) {
    std::string msg = "OpenCL build of " + std::string(name) + " failed on " + deviceName + " (" +
                      clErrorName(buildErr) + ")";
    msg += log.empty() ? std::string(": the driver gave no compiler log") : ":\n" + log;
    return Error{std::move(msg)};
  }
  return BuiltProgram{std::move(program), std::move(log)};
}

Result<BuiltProgram> buildProgram(const ClContext& ctx, const std::string& source, std::string_view name,
                                  std::string_view options) {
  return buildProgram(ctx.context, ctx.device, source, name, options);
}

Result<cl::Kernel> createKernel(const cl::Program& program, const char* kernelName, std::string_view programName) {
  cl_int err = CL_SUCCESS;
  cl::Kernel kernel(program, kernelName, &err);
  if (err != CL_SUCCESS)
    return clError("creating kernel " + std::string(kernelName) +
                       (programName.empty() ? std::string() : " from " + std::string(programName)),
                   err);
  return kernel;
}

}  // namespace tetlab
