# Writes OUTPUT: a C++ file defining outpost::server::embeddedOpeningTables() with the bytes of
# every *.tsv in DATA_DIR (sorted by name). Hex escapes rather than raw text, so no byte of the
# data can end a literal; one source line per data line keeps the file readable.
file(GLOB tables ${DATA_DIR}/*.tsv)
list(SORT tables)
set(arrays "")
set(entries "")
set(index 0)
foreach(table ${tables})
  get_filename_component(name ${table} NAME)
  file(READ ${table} content HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" bytes "${content}")
  string(REPLACE "\\x0a" "\\x0a\"\n\"" bytes "${bytes}")
  string(APPEND arrays "constexpr char kTable${index}[] =\n\"${bytes}\";\n")
  string(APPEND entries "    {\"${name}\", {kTable${index}, sizeof kTable${index} - 1}},\n")
  math(EXPR index "${index} + 1")
endforeach()
file(WRITE ${OUTPUT} "// Generated from server/openings/data/*.tsv; do not edit.\n"
  "#include \"openings/embedded_openings.h\"\n\nnamespace outpost::server {\nnamespace {\n"
  "${arrays}constexpr OpeningTsv kTables[] = {\n${entries}};\n}  // namespace\n\n"
  "std::span<const OpeningTsv> embeddedOpeningTables() { return kTables; }\n\n"
  "}  // namespace outpost::server\n")
