# Writes OUTPUT, the definition of mora::tools::kVersion: the project's version (VERSION) and,
# in a git checkout, the commit of SOURCE_DIR ("-dirty" with uncommitted changes). Run at every
# build; file(CONFIGURE) leaves OUTPUT untouched when its text is unchanged, so nothing is
# rebuilt until the commit changes.
cmake_minimum_required(VERSION 3.20)
set(commit "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} describe --always --dirty --abbrev=12
    OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
  if(failed)
    set(commit "")
  endif()
endif()
if(commit)
  set(text "${VERSION} (commit ${commit})")
else()
  set(text "${VERSION}")
endif()
file(CONFIGURE OUTPUT ${OUTPUT} CONTENT
  "namespace mora::tools {\nextern const char* const kVersion;\nconst char* const kVersion = \"@text@\";\n}  // namespace mora::tools\n"
  @ONLY)
