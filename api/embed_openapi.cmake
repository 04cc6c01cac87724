# Writes OUTPUT: a C++ file defining outpost::api::openApiDocument() with the bytes of INPUT.
# Hex bytes rather than a raw string literal, so no content of the YAML can end the literal.
file(READ ${INPUT} content HEX)
string(LENGTH "${content}" hex_length)
math(EXPR byte_count "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${content}")
file(WRITE ${OUTPUT} "// Generated from api/openapi.yaml; do not edit.\n#include <string_view>\n"
  "namespace outpost::api {\nnamespace {\nconstexpr char kDocument[] = {${bytes} 0};\n}\n"
  "std::string_view openApiDocument() { return {kDocument, ${byte_count}}; }\n}\n")
