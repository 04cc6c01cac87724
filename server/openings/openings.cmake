# Included by server/CMakeLists.txt: embeds the opening tables (server/openings/data) into
# outpost_server_lib.
file(GLOB OUTPOST_OPENING_TABLES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/openings/data/*.tsv)
set(OUTPOST_OPENINGS_CPP ${CMAKE_CURRENT_BINARY_DIR}/embedded_openings.cpp)
add_custom_command(
  OUTPUT ${OUTPOST_OPENINGS_CPP}
  COMMAND ${CMAKE_COMMAND} -DDATA_DIR=${CMAKE_CURRENT_SOURCE_DIR}/openings/data
          -DOUTPUT=${OUTPOST_OPENINGS_CPP} -P ${CMAKE_CURRENT_SOURCE_DIR}/openings/embed_openings.cmake
  DEPENDS ${OUTPOST_OPENING_TABLES} ${CMAKE_CURRENT_SOURCE_DIR}/openings/embed_openings.cmake
  COMMENT "Embedding the opening tables")
target_sources(outpost_server_lib PRIVATE ${OUTPOST_OPENINGS_CPP})
