// Text in and out of an SQLite statement, shared by the SQLite stores.
#pragma once

#include <sqlite3.h>

#include <string>
#include <string_view>

namespace outpost::server {

// Binds `text` to parameter `index` (1-based); SQLite keeps its own copy.
inline void bindText(sqlite3_stmt* statement, int index, std::string_view text) {
    sqlite3_bind_text(statement, index, text.data(), static_cast<int>(text.size()),
                      SQLITE_TRANSIENT);
}

// Column `column` (0-based) of the current row as a string; empty when NULL.
inline std::string columnText(sqlite3_stmt* statement, int column) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
    if (!text) return {};
    return std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(statement, column)));
}

}  // namespace outpost::server
