// Basic chess types shared by the whole engine.
//
// Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63 (little-endian rank-file),
// so bit i of a Bitboard is square i. Colors, piece types, pieces and squares are small unscoped
// enums (cheap to use as array indices); helpers below convert between them.
//
// A Move is a 16-bit value:
//   bits  0- 5  origin square
//   bits  6-11  destination square (castling: the king's destination, e.g. e1g1)
//   bits 12-13  promotion piece type - Knight (0 = knight, 1 = bishop, 2 = rook, 3 = queen)
//   bits 14-15  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
// Move::none() (all zero) means "no move"; Move::null() (b1b1) is the null move of null-move
// pruning. Both can never be legal moves because their origin equals their destination.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace outpost {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

enum Color : std::uint8_t { White, Black, ColorCount = 2 };

constexpr Color operator~(Color c) {
    return Color(c ^ 1);
}

enum PieceType : std::uint8_t {
    NoPieceType,
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
    PieceTypeCount = 7  // index 0 is unused by piece bitboards (Position uses it for "all pieces")
};

// Piece = color * 8 + type, so the color is bit 3 and the type the low three bits.
enum Piece : std::uint8_t {
    NoPiece,
    WhitePawn = Pawn,
    WhiteKnight,
    WhiteBishop,
    WhiteRook,
    WhiteQueen,
    WhiteKing,
    BlackPawn = Pawn + 8,
    BlackKnight,
    BlackBishop,
    BlackRook,
    BlackQueen,
    BlackKing,
    PieceCount = 16
};

constexpr Piece makePiece(Color c, PieceType pt) {
    return Piece((c << 3) | pt);
}
constexpr PieceType typeOf(Piece p) {
    return PieceType(p & 7);
}
constexpr Color colorOf(Piece p) {
    return Color(p >> 3);
}

// clang-format off
enum Square : std::uint8_t {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
    NoSquare, SquareCount = 64
};
// clang-format on

enum File : std::uint8_t { FileA, FileB, FileC, FileD, FileE, FileF, FileG, FileH };
enum Rank : std::uint8_t { Rank1, Rank2, Rank3, Rank4, Rank5, Rank6, Rank7, Rank8 };

constexpr Square makeSquare(int file, int rank) {
    return Square(rank * 8 + file);
}
constexpr int fileOf(Square s) {
    return s & 7;
}
constexpr int rankOf(Square s) {
    return s >> 3;
}
constexpr bool isOk(Square s) {
    return s < SquareCount;
}
// The square as seen from White's side: a8 for Black is a1 for White.
constexpr Square relativeSquare(Color c, Square s) {
    return Square(s ^ (c * 56));
}
constexpr int relativeRank(Color c, int rank) {
    return c == White ? rank : 7 - rank;
}
constexpr int relativeRank(Color c, Square s) {
    return relativeRank(c, rankOf(s));
}
constexpr Square flipRank(Square s) {
    return Square(s ^ 56);
}
// One step forward for a pawn of this color.
constexpr int pawnPush(Color c) {
    return c == White ? 8 : -8;
}

// Castling rights as a 4-bit set.
enum CastlingRights : std::uint8_t {
    NoCastling = 0,
    WhiteKingSide = 1,
    WhiteQueenSide = 2,
    BlackKingSide = 4,
    BlackQueenSide = 8,
    WhiteCastling = WhiteKingSide | WhiteQueenSide,
    BlackCastling = BlackKingSide | BlackQueenSide,
    AllCastling = WhiteCastling | BlackCastling,
    CastlingRightsCount = 16
};

enum class MoveKind : std::uint8_t { Normal = 0, Promotion = 1, EnPassant = 2, Castling = 3 };

class Move {
  public:
    constexpr Move() = default;
    constexpr explicit Move(std::uint16_t raw) : data_(raw) {}
    constexpr Move(Square from, Square to) : data_(std::uint16_t(from | (to << 6))) {}

    static constexpr Move make(Square from, Square to, MoveKind kind,
                               PieceType promotion = Knight) {
        return Move(
            std::uint16_t(from | (to << 6) | ((promotion - Knight) << 12) | (int(kind) << 14)));
    }
    static constexpr Move none() { return Move(); }
    static constexpr Move null() { return Move(std::uint16_t(B1 | (B1 << 6))); }

    constexpr Square from() const { return Square(data_ & 0x3F); }
    constexpr Square to() const { return Square((data_ >> 6) & 0x3F); }
    constexpr MoveKind kind() const { return MoveKind(data_ >> 14); }
    // Only meaningful when kind() == MoveKind::Promotion.
    constexpr PieceType promotionType() const { return PieceType(((data_ >> 12) & 3) + Knight); }
    constexpr bool isPromotion() const { return kind() == MoveKind::Promotion; }
    constexpr bool isEnPassant() const { return kind() == MoveKind::EnPassant; }
    constexpr bool isCastling() const { return kind() == MoveKind::Castling; }
    // False for none() and null().
    constexpr bool isOk() const { return from() != to(); }
    constexpr std::uint16_t raw() const { return data_; }

    constexpr explicit operator bool() const { return data_ != 0; }
    constexpr bool operator==(const Move&) const = default;

  private:
    std::uint16_t data_ = 0;
};

// Upper bound on the number of legal moves in any reachable position (218 is the known maximum).
inline constexpr int kMaxMoves = 256;
// Upper bound on search depth in plies (arrays indexed by ply use it).
inline constexpr int kMaxPly = 246;

// A move with a score slot that move pickers use for ordering.
struct ScoredMove {
    Move move;
    std::int32_t score;
};

// A fixed-capacity move list (no allocation); generators append to it. The storage is left
// uninitialised on construction (a list is built at every node of a search or perft).
class MoveList {
  public:
    MoveList() {}
    MoveList(const MoveList& other) : size_(other.size_) {
        for (std::size_t i = 0; i < size_; ++i) storage_.moves[i] = other.storage_.moves[i];
    }
    MoveList& operator=(const MoveList& other) {
        size_ = other.size_;
        for (std::size_t i = 0; i < size_; ++i) storage_.moves[i] = other.storage_.moves[i];
        return *this;
    }
    void push(Move m) { storage_.moves[size_++] = ScoredMove{m, 0}; }
    void clear() { size_ = 0; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    bool contains(Move m) const {
        for (std::size_t i = 0; i < size_; ++i)
            if (storage_.moves[i].move == m) return true;
        return false;
    }
    ScoredMove& operator[](std::size_t i) { return storage_.moves[i]; }
    const ScoredMove& operator[](std::size_t i) const { return storage_.moves[i]; }
    ScoredMove* begin() { return storage_.moves; }
    ScoredMove* end() { return storage_.moves + size_; }
    const ScoredMove* begin() const { return storage_.moves; }
    const ScoredMove* end() const { return storage_.moves + size_; }

  private:
    union Storage {
        Storage() {}
        ScoredMove moves[kMaxMoves];
    } storage_;
    std::size_t size_ = 0;
};

// Conventional piece values in centipawns, used by SEE and simple move ordering (the evaluation
// has its own tuned values).
inline constexpr std::array<int, PieceTypeCount> kSeeValue = {0, 100, 320, 330, 500, 950, 20000};

}  // namespace outpost
