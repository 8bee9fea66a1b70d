// Host-side #include expansion for kernels: pure, tested with an in-memory
// file table.
#include <map>

#include <gtest/gtest.h>

#include "gpu/cl/cl_program.h"

namespace tetlab {
namespace {

SourceLoader mapLoader(const std::map<std::string, std::string>& files) {
  return [files](const std::string& name) -> Result<std::string> {
    auto it = files.find(name);
    if (it == files.end()) return Error{"no file " + name};
    return it->second;
  };
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(ExpandIncludes, InlinesNestedIncludesWithLineMarkers) {
  auto r = expandIncludes("cl/main.cl", mapLoader({
                                            {"cl/main.cl", "// main\n#include \"common/a.clh\"\nkernel_body\n"},
                                            {"cl/common/a.clh", "#include \"b.clh\"\nA\n"},
                                            {"cl/common/b.clh", "B\n"},
                                        }));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::string expected =
      "#line 1 \"cl/main.cl\"\n// main\n"
      "#line 1 \"cl/common/a.clh\"\n"
      "#line 1 \"cl/common/b.clh\"\nB\n"
      "#line 2 \"cl/common/a.clh\"\nA\n"
      "#line 3 \"cl/main.cl\"\nkernel_body\n";
  EXPECT_EQ(r->text, expected);
  EXPECT_EQ(r->files, (std::vector<std::string>{"cl/main.cl", "cl/common/a.clh", "cl/common/b.clh"}));
}

TEST(ExpandIncludes, ResolvesParentFolderAndFallsBackToClRoot) {
  auto r = expandIncludes("cl/solvers/x.cl", mapLoader({
                                                 {"cl/solvers/x.cl", "#include \"../common/m.clh\"\n#include \"common/n.clh\"\n"},
                                                 {"cl/common/m.clh", "M\n"},
                                                 {"cl/common/n.clh", "N\n"},
                                             }));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(contains(r->text, "M\n"));
  EXPECT_TRUE(contains(r->text, "N\n"));
}

TEST(ExpandIncludes, PragmaOnceInlinesAFileOnceAndDropsThePragma) {
  auto r = expandIncludes("cl/m.cl", mapLoader({
                                         {"cl/m.cl", "#include \"o.clh\"\n#include \"o.clh\"\nK\n"},
                                         {"cl/o.clh", "  #  pragma once\nONCE\n"},
                                     }));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->text.find("ONCE"), r->text.rfind("ONCE"));
  EXPECT_FALSE(contains(r->text, "pragma"));
}

TEST(ExpandIncludes, FilesWithoutPragmaOnceAreInlinedEachTime) {
  auto r = expandIncludes("cl/m.cl", mapLoader({
                                         {"cl/m.cl", "#include \"t.clh\"\n#include \"t.clh\"\n"},
                                         {"cl/t.clh", "TWICE\n"},
                                     }));
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r->text.find("TWICE"), r->text.rfind("TWICE"));
}

TEST(ExpandIncludes, DetectsCyclesAndNamesTheChain) {
  auto r = expandIncludes("cl/a.cl", mapLoader({
                                         {"cl/a.cl", "#include \"b.clh\"\n"},
                                         {"cl/b.clh", "#include \"c.clh\"\n"},
                                         {"cl/c.clh", "#include \"b.clh\"\n"},
                                     }));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error().message, "include cycle: cl/a.cl -> cl/b.clh -> cl/c.clh -> cl/b.clh"))
      << r.error().message;
}

TEST(ExpandIncludes, LimitsTheDepth) {
  std::map<std::string, std::string> files;
  for (int i = 0; i < 5; ++i) files["cl/f" + std::to_string(i) + ".clh"] = "#include \"f" + std::to_string(i + 1) + ".clh\"\n";
  files["cl/f5.clh"] = "END\n";
  EXPECT_TRUE(expandIncludes("cl/f0.clh", mapLoader(files), 5).ok());
  auto r = expandIncludes("cl/f0.clh", mapLoader(files), 4);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error().message, "deeper than 4")) << r.error().message;
}

TEST(ExpandIncludes, MissingIncludeNamesFileAndLine) {
  auto r = expandIncludes("cl/m.cl", mapLoader({{"cl/m.cl", "\n\n#include \"nope.clh\"\n"}}));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error().message, "cl/m.cl:3")) << r.error().message;
  EXPECT_TRUE(contains(r.error().message, "nope.clh"));
}

TEST(ExpandIncludes, RejectsSystemIncludesAndEscapes) {
  auto angle = expandIncludes("cl/m.cl", mapLoader({{"cl/m.cl", "#include <stdio.h>\n"}}));
  ASSERT_FALSE(angle.ok());
  EXPECT_TRUE(contains(angle.error().message, "cl/m.cl:1"));
  auto escape = expandIncludes("cl/m.cl", mapLoader({{"cl/m.cl", "#include \"../../../etc/passwd\"\n"}}));
  ASSERT_FALSE(escape.ok());
  EXPECT_TRUE(contains(escape.error().message, "leaves the shader folder")) << escape.error().message;
}

TEST(ExpandIncludes, IgnoresIncludesInsideBlockComments) {
  auto r = expandIncludes("cl/m.cl", mapLoader({{"cl/m.cl", "/* old:\n#include \"gone.clh\"\n*/\nK\n"}}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(contains(r->text, "#include \"gone.clh\""));  // kept verbatim, inside the comment
}

TEST(ExpandIncludes, MissingMainFileIsAnError) {
  auto r = expandIncludes("cl/none.cl", mapLoader({}));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error().message, "cl/none.cl"));
}

}  // namespace
}  // namespace tetlab
