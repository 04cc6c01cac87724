#include "core/notation.h"

#include <cctype>
#include <cstddef>

#include "core/movegen.h"

namespace outpost {

namespace {

constexpr std::string_view kPieceLetters = "  NBRQK";  // indexed by PieceType

char promotionLetter(PieceType pt) {
    return "  nbrq"[pt];
}

// The client's text as an error message shows it: printable ASCII, and only its first
// kMaxShownChars characters (a message names the move; it does not echo a huge field back).
constexpr std::size_t kMaxShownChars = 40;

std::string printable(std::string_view text) {
    std::string out;
    for (const char c : text.substr(0, kMaxShownChars)) out += (c >= 0x20 && c < 0x7F) ? c : '?';
    if (text.size() > kMaxShownChars) out += "...";
    return out;
}

// The text in single quotes, built by appending (GCC 12 warns falsely on "'" + std::string).
std::string quoted(std::string_view text) {
    std::string out = "'";
    out += printable(text);
    out += '\'';
    return out;
}

// UCI's 0000 and PGN's -- (ChessBase's Z0) pass the turn: no rule allows that in a game.
constexpr const char* kNullMoveRefused =
    "a null move ('0000', '--': passing the turn) is not a legal move";

std::optional<PieceType> pieceFromLetter(char c) {
    switch (std::toupper(static_cast<unsigned char>(c))) {
        case 'N':
            return Knight;
        case 'B':
            return Bishop;
        case 'R':
            return Rook;
        case 'Q':
            return Queen;
        case 'K':
            return King;
        default:
            return std::nullopt;
    }
}

bool isFileChar(char c) {
    return c >= 'a' && c <= 'h';
}
bool isRankChar(char c) {
    return c >= '1' && c <= '8';
}

}  // namespace

std::string squareToString(Square s) {
    return {char('a' + fileOf(s)), char('1' + rankOf(s))};
}

std::optional<Square> squareFromString(std::string_view text) {
    if (text.size() != 2 || !isFileChar(text[0]) || !isRankChar(text[1])) return std::nullopt;
    return makeSquare(text[0] - 'a', text[1] - '1');
}

std::string moveToUci(Move m) {
    if (!m.isOk()) return "0000";
    std::string s = squareToString(m.from()) + squareToString(m.to());
    if (m.isPromotion()) s += promotionLetter(m.promotionType());
    return s;
}

std::optional<Move> moveFromUci(const Position& pos, std::string_view text, std::string* error) {
    auto fail = [&](std::string why) -> std::optional<Move> {
        if (error) *error = std::move(why);
        return std::nullopt;
    };
    if (text == "0000") return fail(kNullMoveRefused);
    if (text.size() != 4 && text.size() != 5)
        return fail(quoted(text) + " is not a UCI move (like e2e4 or e7e8q)");
    const auto from = squareFromString(text.substr(0, 2));
    const auto to = squareFromString(text.substr(2, 2));
    if (!from || !to) return fail(quoted(text) + " is not a UCI move (bad square)");
    std::optional<PieceType> promo;
    if (text.size() == 5) {
        promo = pieceFromLetter(text[4]);
        if (!promo || *promo == King) return fail(quoted(text) + " has a bad promotion piece");
    }
    MoveList list;
    generateLegal(pos, list);
    for (const ScoredMove& sm : list) {
        const Move m = sm.move;
        if (m.from() != *from) continue;
        // Castling may also be written king-takes-own-rook (e1h1), as Chess960 GUIs do.
        const bool castlingAsRook = m.isCastling() &&
                                    pos.pieceOn(*to) == makePiece(pos.sideToMove(), Rook) &&
                                    fileOf(*to) == (fileOf(m.to()) == FileG ? FileH : FileA);
        if (m.to() != *to && !castlingAsRook) continue;
        if (m.isPromotion() != promo.has_value()) continue;
        if (promo && m.promotionType() != *promo) continue;
        return m;
    }
    if (!promo && pos.pieceOn(*from) == makePiece(pos.sideToMove(), Pawn) &&
        relativeRank(pos.sideToMove(), *to) == Rank8)
        return fail("illegal move " + quoted(text) + ": a promotion needs a piece letter");
    return fail("illegal move " + quoted(text) + " in " + pos.toFen());
}

std::string moveToSan(const Position& pos, Move m) {
    std::string san;
    if (m.isCastling()) {
        san = fileOf(m.to()) == FileG ? "O-O" : "O-O-O";
    } else {
        const PieceType pt = typeOf(pos.movedPiece(m));
        const bool capture = pos.isCapture(m);
        if (pt == Pawn) {
            if (capture) {
                san += char('a' + fileOf(m.from()));
                san += 'x';
            }
            san += squareToString(m.to());
            if (m.isPromotion()) {
                san += '=';
                san += kPieceLetters[m.promotionType()];
            }
        } else {
            san += kPieceLetters[pt];
            // Disambiguate among other pieces of the same type that can reach the same square:
            // by file if that suffices, else by rank, else by both.
            MoveList list;
            generateLegal(pos, list);
            bool others = false, sameFile = false, sameRank = false;
            for (const ScoredMove& sm : list) {
                const Move o = sm.move;
                if (o == m || o.to() != m.to() || typeOf(pos.movedPiece(o)) != pt) continue;
                others = true;
                if (fileOf(o.from()) == fileOf(m.from())) sameFile = true;
                if (rankOf(o.from()) == rankOf(m.from())) sameRank = true;
            }
            if (others) {
                if (!sameFile)
                    san += char('a' + fileOf(m.from()));
                else if (!sameRank)
                    san += char('1' + rankOf(m.from()));
                else
                    san += squareToString(m.from());
            }
            if (capture) san += 'x';
            san += squareToString(m.to());
        }
    }
    if (pos.givesCheck(m)) {
        Position after = pos;
        after.makeMove(m);
        san += hasLegalMove(after) ? '+' : '#';
    }
    return san;
}

std::optional<Move> moveFromSan(const Position& pos, std::string_view input, std::string* error) {
    auto fail = [&](std::string why) -> std::optional<Move> {
        if (error) *error = std::move(why);
        return std::nullopt;
    };
    const std::string original = printable(input);
    const std::string q = quoted(input);
    // Trim spaces and trailing check, mate and annotation marks.
    std::string_view text = input;
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() &&
           (std::isspace(static_cast<unsigned char>(text.back())) || text.back() == '+' ||
            text.back() == '#' || text.back() == '!' || text.back() == '?'))
        text.remove_suffix(1);
    // An en-passant remark ("exd6 e.p.") adds nothing.
    for (const std::string_view suffix : {"e.p.", "ep"}) {
        if (text.size() > suffix.size() + 2 && text.substr(text.size() - suffix.size()) == suffix) {
            text.remove_suffix(suffix.size());
            while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
                text.remove_suffix(1);
        }
    }
    if (text.empty()) return fail("empty move");
    if (text == "0000" || text == "--" || text == "Z0") return fail(kNullMoveRefused);
    if (text.size() > 12) return fail(q + " is not a move");

    MoveList list;
    generateLegal(pos, list);

    // Castling: O-O, 0-0, o-o (and the queen side with three).
    {
        std::string norm;
        for (const char c : text) norm += (c == '0' || c == 'o') ? 'O' : c;
        if (norm == "O-O" || norm == "O-O-O") {
            const File kingFile = norm == "O-O" ? FileG : FileC;
            for (const ScoredMove& sm : list)
                if (sm.move.isCastling() && fileOf(sm.move.to()) == kingFile) return sm.move;
            return fail("castling " + norm + " is not legal here");
        }
    }

    // Promotion suffix: "=Q", "Q" or "q" after the destination rank, or "(Q)".
    std::optional<PieceType> promo;
    if (text.size() >= 3 && text.back() == ')' && text[text.size() - 3] == '(') {
        promo = pieceFromLetter(text[text.size() - 2]);
        if (!promo || *promo == King) return fail("bad promotion piece in '" + original + "'");
        text.remove_suffix(3);
    } else if (text.size() >= 2 && pieceFromLetter(text.back()) &&
               (isRankChar(text[text.size() - 2]) || text[text.size() - 2] == '=')) {
        promo = pieceFromLetter(text.back());
        if (*promo == King) return fail("cannot promote to a king in '" + original + "'");
        text.remove_suffix(1);
        if (!text.empty() && text.back() == '=') text.remove_suffix(1);
    } else if (text.find('=') != std::string_view::npos ||
               (text.size() >= 2 &&
                (text[text.size() - 2] == '1' || text[text.size() - 2] == '8') &&
                std::isalpha(static_cast<unsigned char>(text.back())) && text.back() != 'x' &&
                text.back() != 'X')) {
        // "e8=P", "e8=", "e8p": a promotion to something that is not a piece (it used to be
        // called a move with no destination square).
        return fail("bad promotion piece in '" + original + "' (expected Q, R, B or N)");
    }

    // Piece letter: upper case, or lower case except 'b' (which is the b-file).
    PieceType pt = Pawn;
    bool pieceNamed = false;
    if (!text.empty() && text.front() == 'P') {
        pieceNamed = true;
        text.remove_prefix(1);
    } else if (!text.empty() && (std::isupper(static_cast<unsigned char>(text.front())) ||
                                 (text.front() != 'b' && pieceFromLetter(text.front())))) {
        const auto p = pieceFromLetter(text.front());
        if (!p) return fail(q + " is not a move (bad piece letter)");
        pt = *p;
        pieceNamed = true;
        text.remove_prefix(1);
    }

    // What is left: [from file][from rank][x|-][to file][to rank], or a pawn capture by files
    // only ("exd").
    std::optional<int> fromFile, fromRank, toFile, toRank;
    std::string rest;
    for (const char c : text)
        if (c != 'x' && c != 'X' && c != '-' && c != ':') rest += c;
    if (rest.size() >= 2 && isFileChar(rest[rest.size() - 2]) && isRankChar(rest.back())) {
        toFile = rest[rest.size() - 2] - 'a';
        toRank = rest.back() - '1';
        rest.resize(rest.size() - 2);
    } else if (pt == Pawn && rest.size() == 2 && isFileChar(rest[0]) && isFileChar(rest[1])) {
        toFile = rest[1] - 'a';
        rest.resize(1);
    } else {
        return fail(q + " is not a move (no destination square)");
    }
    for (const char c : rest) {
        if (isFileChar(c) && !fromFile && !fromRank)
            fromFile = c - 'a';
        else if (isRankChar(c) && !fromRank)
            fromRank = c - '1';
        else
            return fail(q + " is not a move (bad characters)");
    }

    // Coordinates with a separator and no piece letter ("g1-f3", "g1xf3", "e1-g1"): the piece is
    // the one on the first square, whatever it is (without this only a pawn was found there, and
    // a legal knight or king move was called illegal).
    if (!pieceNamed && fromFile && fromRank && toRank) {
        const Square from = makeSquare(*fromFile, *fromRank);
        const Square to = makeSquare(*toFile, *toRank);
        if (pos.pieceOn(from) != makePiece(pos.sideToMove(), Pawn)) {
            std::string uci = squareToString(from) + squareToString(to);
            if (promo) uci += promotionLetter(*promo);
            if (const auto m = moveFromUci(pos, uci)) return m;
        }
    }

    std::optional<Move> found;
    std::string candidates;
    bool needsPromotion = false;
    for (const ScoredMove& sm : list) {
        const Move m = sm.move;
        if (m.isCastling() || typeOf(pos.movedPiece(m)) != pt) continue;
        if (fileOf(m.to()) != *toFile || (toRank && rankOf(m.to()) != *toRank)) continue;
        if (fromFile && fileOf(m.from()) != *fromFile) continue;
        if (fromRank && rankOf(m.from()) != *fromRank) continue;
        if (pt == Pawn && !toRank && !pos.isCapture(m)) continue;
        if (m.isPromotion()) {
            if (!promo) {
                needsPromotion = true;
                continue;
            }
            if (m.promotionType() != *promo) continue;
        } else if (promo) {
            continue;
        }
        if (found) {
            if (candidates.empty()) candidates = moveToSan(pos, *found);
            candidates += ", " + moveToSan(pos, m);
        } else {
            found = m;
        }
    }
    if (!candidates.empty())
        return fail("ambiguous move '" + original + "': could be " + candidates);
    if (found) return found;
    if (needsPromotion) return fail(q + " needs a promotion piece (like =Q)");
    return fail("illegal move '" + original + "' in " + pos.toFen());
}

std::optional<Move> parseMove(const Position& pos, std::string_view text, std::string* error) {
    std::string uciError;
    const bool looksUci = (text.size() == 4 || text.size() == 5) && isFileChar(text[0]) &&
                          isRankChar(text[1]) && isFileChar(text[2]) && isRankChar(text[3]);
    if (looksUci) {
        if (auto m = moveFromUci(pos, text, &uciError)) return m;
        // A fifth letter is a promotion piece, right or wrong ("e7e8p": a bad one, said so).
        if (text.size() == 4 ||
            (text.size() == 5 && std::isalpha(static_cast<unsigned char>(text[4])))) {
            if (error) *error = uciError;
            return std::nullopt;
        }
    }
    return moveFromSan(pos, text, error);
}

}  // namespace outpost
