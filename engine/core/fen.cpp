// FEN reading and writing. Reading is strict: every rejection names its reason, and any input
// (arbitrary bytes included) is handled without crashing.
#include <algorithm>
#include <charconv>
#include <vector>

#include "core/position.h"
#include "core/zobrist.h"

namespace outpost {

namespace {

constexpr std::string_view kPieceLetters = "PNBRQKpnbrqk";
// Generous bounds: anything beyond them is certainly a typo or garbage.
constexpr int kMaxHalfmoveClock = 1000;
constexpr int kMaxFullmoveNumber = 100000;
constexpr int kMaxPawnsPerSide = 8;
constexpr int kMaxPiecesPerSide = 16;

std::vector<std::string_view> splitFields(std::string_view text) {
    std::vector<std::string_view> fields;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
        if (i > start) fields.push_back(text.substr(start, i - start));
    }
    return fields;
}

// A plain decimal number without sign; nullopt if malformed or above maxValue.
std::optional<int> parseCounter(std::string_view text, int maxValue) {
    if (text.empty() || text.size() > 9) return std::nullopt;
    for (const char c : text)
        if (c < '0' || c > '9') return std::nullopt;
    int value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    if (value > maxValue) return std::nullopt;
    return value;
}

std::string printable(std::string_view text) {
    std::string out;
    for (const char c : text) out += (c >= 0x20 && c < 0x7F) ? c : '?';
    return out;
}

}  // namespace

std::optional<Position> Position::fromFen(std::string_view fen, std::string* error) {
    Position pos;
    if (auto why = pos.readFen(fen)) {
        if (error) *error = std::move(*why);
        return std::nullopt;
    }
    return pos;
}

std::optional<std::string> Position::readFen(std::string_view fen) {
    using zobrist::kKeys;
    clear();
    if (fen.size() > 200) return "FEN is too long";
    for (const char c : fen)
        if (c == '\n' || c == '\r') return "FEN contains a line break";
    const std::vector<std::string_view> fields = splitFields(fen);
    if (fields.size() != 4 && fields.size() != 6)
        return "wrong number of fields: expected 6 (or 4 without the move counters), got " +
               std::to_string(fields.size());

    // 1. Piece placement, from rank 8 down to rank 1.
    {
        int rank = 7, file = 0;
        bool lastWasDigit = false;
        for (const char c : fields[0]) {
            if (c == '/') {
                if (file != 8)
                    return "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
                           " squares instead of 8";
                if (rank == 0) return "more than 8 ranks in the piece placement";
                --rank;
                file = 0;
                lastWasDigit = false;
            } else if (c >= '1' && c <= '8') {
                if (lastWasDigit) return "two digits in a row in rank " + std::to_string(rank + 1);
                file += c - '0';
                lastWasDigit = true;
                if (file > 8)
                    return "rank " + std::to_string(rank + 1) + " has more than 8 squares";
            } else {
                const std::size_t idx = kPieceLetters.find(c);
                if (idx == std::string_view::npos || c == '\0')
                    return "bad piece letter '" + printable(std::string_view(&c, 1)) + "'";
                if (file >= 8)
                    return "rank " + std::to_string(rank + 1) + " has more than 8 squares";
                const Piece p = makePiece(idx < 6 ? White : Black, PieceType(idx % 6 + 1));
                putPiece(p, makeSquare(file, rank));
                ++file;
                lastWasDigit = false;
            }
        }
        if (file != 8)
            return "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
                   " squares instead of 8";
        if (rank != 0)
            return "the piece placement has " + std::to_string(8 - rank) + " ranks instead of 8";
    }
    for (const Color c : {White, Black}) {
        const char* name = c == White ? "white" : "black";
        if (count(c, King) != 1)
            return std::string("there must be exactly one ") + name + " king, found " +
                   std::to_string(count(c, King));
        if (count(c, Pawn) > kMaxPawnsPerSide) return std::string("more than 8 ") + name + " pawns";
        if (popcount(pieces(c)) > kMaxPiecesPerSide)
            return std::string("more than 16 ") + name + " pieces";
    }
    if (pieces(Pawn) & (rankBB(Rank1) | rankBB(Rank8))) return "pawn on the first or last rank";

    // 2. Side to move.
    if (fields[1] == "w")
        sideToMove_ = White;
    else if (fields[1] == "b")
        sideToMove_ = Black;
    else
        return "side to move must be 'w' or 'b', got '" + printable(fields[1]) + "'";

    // 3. Castling rights: '-' or a subset of KQkq, each at most once.
    std::uint8_t castling = NoCastling;
    if (fields[2] != "-") {
        for (const char c : fields[2]) {
            CastlingRights right;
            switch (c) {
                case 'K':
                    right = WhiteKingSide;
                    break;
                case 'Q':
                    right = WhiteQueenSide;
                    break;
                case 'k':
                    right = BlackKingSide;
                    break;
                case 'q':
                    right = BlackQueenSide;
                    break;
                default:
                    return "bad castling field '" + printable(fields[2]) +
                           "': expected '-' or letters from KQkq";
            }
            if (castling & right) return "castling right '" + std::string(1, c) + "' repeated";
            castling |= right;
        }
    }
    struct RightNeeds {
        CastlingRights right;
        char letter;
        Square king, rook;
        Piece kingPiece, rookPiece;
    };
    constexpr RightNeeds kNeeds[4] = {{WhiteKingSide, 'K', E1, H1, WhiteKing, WhiteRook},
                                      {WhiteQueenSide, 'Q', E1, A1, WhiteKing, WhiteRook},
                                      {BlackKingSide, 'k', E8, H8, BlackKing, BlackRook},
                                      {BlackQueenSide, 'q', E8, A8, BlackKing, BlackRook}};
    for (const RightNeeds& n : kNeeds) {
        if (!(castling & n.right)) continue;
        if (board_[n.king] != n.kingPiece)
            return std::string("castling right '") + n.letter +
                   "' but the king is not on its start square";
        if (board_[n.rook] != n.rookPiece)
            return std::string("castling right '") + n.letter + "' but there is no rook on " +
                   char('a' + fileOf(n.rook)) + char('1' + rankOf(n.rook));
    }
    st_->castling = castling;

    // 4. En passant: the square a pawn of the side not to move has just skipped.
    Square ep = NoSquare;
    if (fields[3] != "-") {
        const std::string_view f = fields[3];
        if (f.size() != 2 || f[0] < 'a' || f[0] > 'h' || f[1] < '1' || f[1] > '8')
            return "bad en-passant square '" + printable(f) + "'";
        ep = makeSquare(f[0] - 'a', f[1] - '1');
        const Color us = sideToMove_;
        if (relativeRank(us, ep) != Rank6)
            return "impossible en-passant square " + std::string(f) + ": must be on rank " +
                   (us == White ? "6" : "3") + " with " + (us == White ? "white" : "black") +
                   " to move";
        const Square pushed = Square(ep - pawnPush(us));
        const Square origin = Square(ep + pawnPush(us));
        if (board_[pushed] != makePiece(~us, Pawn))
            return "impossible en-passant square " + std::string(f) +
                   ": no pawn that could just have moved two squares";
        if (!isEmpty(ep) || !isEmpty(origin))
            return "impossible en-passant square " + std::string(f) +
                   ": the squares the pawn passed are not empty";
    }

    // 5. Counters.
    int halfmove = 0, fullmove = 1;
    if (fields.size() == 6) {
        const auto h = parseCounter(fields[4], kMaxHalfmoveClock);
        if (!h) return "bad halfmove clock '" + printable(fields[4]) + "'";
        const auto n = parseCounter(fields[5], kMaxFullmoveNumber);
        if (!n || *n < 1) return "bad fullmove number '" + printable(fields[5]) + "'";
        halfmove = *h;
        fullmove = *n;
        if (ep != NoSquare && halfmove != 0)
            return "bad halfmove clock: must be 0 right after a double pawn push (en-passant "
                   "square "
                   "given)";
    }
    st_->rule50 = std::uint16_t(halfmove);
    st_->pliesFromNull = std::uint16_t(halfmove);
    gamePly_ = 2 * (fullmove - 1) + (sideToMove_ == Black ? 1 : 0);

    // 6. Legality of the whole position.
    if (attackersTo(kingSquare(~sideToMove_)) & pieces(sideToMove_))
        return "the side not to move is in check";
    const Bitboard checkersNow = attackersTo(kingSquare(sideToMove_)) & pieces(~sideToMove_);
    if (popcount(checkersNow) > 2) return "the side to move is in check by more than two pieces";

    st_->pawnKey = computePawnKey();
    st_->materialKey = computeMaterialKey();
    for (const Color c : {White, Black}) st_->nonPawnKey[c] = computeNonPawnKey(c);
    st_->key = computeKey();  // without en passant; added below if a capture is possible
    updateCheckInfo();
    if (ep != NoSquare) setEpSquareIfCapturable(ep);
    return std::nullopt;
}

std::string Position::toFen() const {
    std::string fen;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            const Piece p = board_[makeSquare(f, r)];
            if (p == NoPiece) {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += kPieceLetters[(colorOf(p) == White ? 0 : 6) + typeOf(p) - 1];
        }
        if (empty) fen += char('0' + empty);
        if (r) fen += '/';
    }
    fen += sideToMove_ == White ? " w " : " b ";
    const std::uint8_t c = st_->castling;
    if (!c) fen += '-';
    if (c & WhiteKingSide) fen += 'K';
    if (c & WhiteQueenSide) fen += 'Q';
    if (c & BlackKingSide) fen += 'k';
    if (c & BlackQueenSide) fen += 'q';
    fen += ' ';
    if (st_->epSquare == NoSquare) {
        fen += '-';
    } else {
        fen += char('a' + fileOf(st_->epSquare));
        fen += char('1' + rankOf(st_->epSquare));
    }
    // Counters past what fromFen() reads are written at its bounds, so that every FEN written
    // here can be read back (a game from a FEN at move 100000 went on to write 100001, which
    // the same server then refused). Nothing the rules decide changes: a halfmove clock of 1000
    // is as far past the fifty- and seventy-five-move limits as any larger one.
    const int halfmove = std::min<int>(st_->rule50, kMaxHalfmoveClock);
    const int fullmove = std::min(fullmoveNumber(), kMaxFullmoveNumber);
    fen += ' ' + std::to_string(halfmove) + ' ' + std::to_string(fullmove);
    return fen;
}

}  // namespace outpost
