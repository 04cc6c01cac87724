#include "games/pgn_import.h"

#include <cctype>
#include <optional>

#include "errors/error_codes.h"
#include "games/chess_rules.h"

namespace outpost::server {

namespace {

bool isSpace(char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}
bool isDigit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

bool isResult(std::string_view token) {
    return token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
}

// "!", "?!", "!!": annotation glyphs written apart from their move.
bool isAnnotation(std::string_view token) {
    return !token.empty() && token.find_first_not_of("!?") == std::string_view::npos;
}

// A piece of the text as an error message names it: its first 40 bytes (not cutting a UTF-8
// character), "..." after them when there was more, as the server quotes any client input.
std::string clipped(std::string_view text) {
    constexpr std::size_t kMaxShown = 40;
    if (text.size() <= kMaxShown) return std::string(text);
    std::size_t cut = kMaxShown;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return std::string(text.substr(0, cut)) + "...";
}

// The [Variant] values of standard chess: Lichess writes "Standard", or "From Position" for a
// game from a set-up position; other programs "Chess" or "Normal". Anything else (Chess960,
// Crazyhouse, Atomic, Three-check, King of the Hill...) has other rules: its moves may all be
// legal chess and still mean another game.
bool isStandardVariant(std::string_view value) {
    std::string lower;
    for (const char c : value)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower.empty() || lower == "standard" || lower == "from position" || lower == "chess" ||
           lower == "normal";
}

// Reads the text left to right; each method consumes what it names.
class PgnReader {
  public:
    explicit PgnReader(std::string_view text) : text_(text) {}

    PgnImport read() {
        readTags();
        if (!result_.ok()) return result_;
        for (const auto& [name, value] : result_.tags) {
            if (name == "FEN") result_.initialFen = value;
            if (name == "Result" && isResult(value)) result_.result = value;
            if (name == "Variant" && !isStandardVariant(value)) {
                return fail(errors::bad_pgn, "the game is a " + clipped(value) +
                                                 " game (its [Variant] tag): only standard "
                                                 "chess can be read");
            }
        }
        std::string fenError;
        bool badMove = false;
        std::optional<ChessState> state =
            ChessState::load(result_.initialFen, {}, fenError, badMove);
        if (!state)
            return fail(errors::invalid_fen, "the [FEN] tag is not a valid position: " + fenError);
        readMovetext(*state);
        return result_;
    }

  private:
    PgnImport fail(std::string code, std::string message, int ply = 0) {
        result_.errorCode = std::move(code);
        result_.error = std::move(message);
        result_.errorPly = ply;
        return result_;
    }

    bool atEnd() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }
    bool atLineStart() const { return pos_ == 0 || text_[pos_ - 1] == '\n'; }

    void skipLine() {
        while (!atEnd() && peek() != '\n') ++pos_;
    }

    // Whitespace, and escape lines (% in the first column).
    void skipSpace() {
        while (!atEnd()) {
            if (isSpace(peek())) {
                ++pos_;
            } else if (peek() == '%' && atLineStart()) {
                skipLine();
            } else {
                return;
            }
        }
    }

    // The line number of an offset (counted only for an error message).
    std::size_t lineAt(std::size_t offset) const {
        std::size_t count = 1;
        for (std::size_t i = 0; i < offset && i < text_.size(); ++i) count += text_[i] == '\n';
        return count;
    }

    void readTags() {
        for (;;) {
            skipSpace();
            if (atEnd() || peek() != '[') return;
            const std::size_t tagStart = pos_;
            ++pos_;
            while (!atEnd() && isSpace(peek())) ++pos_;
            std::string name;
            while (!atEnd() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_' ||
                                peek() == '-')) {
                name += peek();
                ++pos_;
            }
            while (!atEnd() && isSpace(peek())) ++pos_;
            if (name.empty() || atEnd() || peek() != '"') {
                fail(errors::bad_pgn, "malformed tag pair on line " +
                                          std::to_string(lineAt(tagStart)) +
                                          ": expected [Name \"value\"]");
                return;
            }
            ++pos_;
            std::string value;
            bool closed = false;
            while (!atEnd()) {
                char c = text_[pos_++];
                if (c == '\\' && !atEnd()) {
                    value += text_[pos_++];
                } else if (c == '"') {
                    closed = true;
                    break;
                } else if (c == '\n') {
                    break;
                } else {
                    value += c;
                }
            }
            while (!atEnd() && isSpace(peek()) && peek() != '\n') ++pos_;
            if (!closed || atEnd() || peek() != ']') {
                fail(errors::bad_pgn, "unterminated tag pair on line " +
                                          std::to_string(lineAt(tagStart)) + " ([" + clipped(name) +
                                          " ...)");
                return;
            }
            ++pos_;
            result_.tags.emplace_back(std::move(name), std::move(value));
        }
    }

    // Skips a {comment}; false when it never ends.
    bool skipBraceComment() {
        const std::size_t close = text_.find('}', pos_);
        if (close == std::string_view::npos) return false;
        pos_ = close + 1;
        return true;
    }

    // Skips a (variation), nested ones and the comments in it; false when it never ends.
    bool skipVariation() {
        int depth = 0;
        while (!atEnd()) {
            const char c = peek();
            if (c == '{') {
                if (!skipBraceComment()) return false;
                continue;
            }
            if (c == ';') {
                skipLine();
                continue;
            }
            ++pos_;
            if (c == '(') ++depth;
            if (c == ')' && --depth == 0) return true;
        }
        return false;
    }

    // One whitespace-delimited symbol of the movetext (stops before the characters that
    // start something else).
    std::string_view symbol() {
        const std::size_t start = pos_;
        while (!atEnd()) {
            const char c = peek();
            if (isSpace(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == ';' ||
                c == '[' || c == ']' || c == '$')
                break;
            ++pos_;
        }
        return text_.substr(start, pos_ - start);
    }

    void readMovetext(ChessState& state) {
        for (;;) {
            skipSpace();
            if (atEnd()) return;
            const char c = peek();
            if (c == '{') {
                const std::size_t at = pos_;
                if (!skipBraceComment()) {
                    fail(errors::bad_pgn,
                         "the comment on line " + std::to_string(lineAt(at)) + " never ends");
                    return;
                }
                continue;
            }
            if (c == ';') {
                skipLine();
                continue;
            }
            if (c == '(') {
                const std::size_t at = pos_;
                if (!skipVariation()) {
                    fail(errors::bad_pgn,
                         "the variation on line " + std::to_string(lineAt(at)) + " never ends");
                    return;
                }
                continue;
            }
            if (c == ')' || c == '}' || c == ']') {
                fail(errors::bad_pgn,
                     std::string("unexpected '") + c + "' on line " + std::to_string(lineAt(pos_)));
                return;
            }
            if (c == '[') return;  // the next game's tags
            if (c == '$') {
                ++pos_;
                while (!atEnd() && isDigit(peek())) ++pos_;
                continue;
            }
            std::string_view token = symbol();
            if (token.empty()) {  // a lone character symbol() stops at
                ++pos_;
                continue;
            }
            if (isResult(token)) {
                result_.result = std::string(token);
                return;
            }
            // A move number, perhaps glued to its move: "12.", "12...", "12.e4".
            std::size_t digits = 0;
            while (digits < token.size() && isDigit(token[digits])) ++digits;
            if (digits > 0 && digits < token.size() && token[digits] == '.') {
                token.remove_prefix(digits);
                while (!token.empty() && token.front() == '.') token.remove_prefix(1);
                if (token.empty()) continue;
            } else if (digits == token.size()) {
                continue;  // a bare number ("12" followed by "." elsewhere, or a stray one)
            }
            if (isAnnotation(token)) continue;
            // "exf6 e.p.": older PGNs and books mark an en passant capture apart from its move.
            if (token == "e.p." || token == "ep") continue;
            if (!playMove(state, token)) return;
        }
    }

    bool playMove(ChessState& state, std::string_view token) {
        const int ply = static_cast<int>(result_.moves.size()) + 1;
        if (result_.moves.size() >= kMaxPgnPlies) {
            fail(errors::too_large,
                 "the game is longer than " + std::to_string(kMaxPgnPlies) + " plies");
            return false;
        }
        const int moveNumber = state.fullmoveNumber();
        const bool white = state.whiteToMove();
        if (state.legalMoves().empty()) {
            fail(errors::illegal_move,
                 "move " + std::to_string(moveNumber) + (white ? ". " : "... ") + clipped(token) +
                     " (ply " + std::to_string(ply) + ") comes after the game ended",
                 ply);
            return false;
        }
        ParsedMove parsed = state.parse(token);
        if (parsed.uci.empty()) {
            fail(errors::illegal_move,
                 "move " + std::to_string(moveNumber) + (white ? ". " : "... ") + clipped(token) +
                     " (ply " + std::to_string(ply) + "): " + parsed.error,
                 ply);
            return false;
        }
        state.play(parsed.uci);
        result_.moves.push_back(std::move(parsed.uci));
        return true;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    PgnImport result_;
};

}  // namespace

PgnImport importPgn(std::string_view text) {
    if (text.size() > kMaxPgnBytes) {
        PgnImport result;
        result.errorCode = errors::too_large;
        result.error = "the PGN is larger than " + std::to_string(kMaxPgnBytes) + " bytes";
        return result;
    }
    // A UTF-8 byte order mark (Windows editors, ChessBase and some sites' downloads start
    // their files with one) is not part of the text.
    constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
    if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) text.remove_prefix(kUtf8Bom.size());
    try {
        return PgnReader(text).read();
    } catch (const std::exception& error) {
        // The chess code throws only on what the reader checked before; still, never throw.
        PgnImport result;
        result.errorCode = errors::bad_pgn;
        result.error = std::string("the PGN could not be read: ") + error.what();
        return result;
    }
}

}  // namespace outpost::server
