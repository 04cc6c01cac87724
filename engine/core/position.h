// The board: piece placement, side to move, castling, en passant, counters, hash keys, and the
// history of the game so far (for unmaking moves and detecting repetitions).
//
// Representation: one bitboard per piece type and per color plus a 64-square mailbox. Each
// position also keeps a stack of StateInfo records, one per move made since it was created from a
// FEN: what makeMove() cannot recompute when unmaking (captured piece, castling rights, en-passant
// square, fifty-move counter) and what is cheap to keep incrementally and often needed (Zobrist
// keys, checkers, pieces that block checks). makeMove()/unmakeMove() are exact inverses, so the
// search uses one Position per thread and walks the tree with make/unmake; the stack of keys is
// also what repetition detection scans.
//
// Keys: key() is the Zobrist hash of the full position (pieces, side, castling rights, and the
// en-passant file only when a pawn of the side to move can capture en passant, so positions that
// differ only by an unusable en-passant square hash the same, as the repetition rules require).
// pawnKey() hashes pawns only (for pawn-structure caches); materialKey() hashes piece counts;
// nonPawnKey(c) hashes the pieces of color c other than pawns, king included (the search's
// correction history by each side's piece placement).
//
// Moves given to makeMove() must be legal (see isLegal() for validating moves from elsewhere:
// transposition table, killers, user input).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/bitboard.h"
#include "core/types.h"

namespace outpost {

inline constexpr std::string_view kStartFen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

struct StateInfo {
    // Copied from the previous state by makeMove(), then updated.
    Key pawnKey;
    Key materialKey;
    Key nonPawnKey[ColorCount];
    std::uint8_t castling;  // CastlingRights bits
    std::uint16_t rule50;   // plies since the last capture or pawn move
    std::uint16_t pliesFromNull;
    // Recomputed by makeMove().
    Key key;
    Square epSquare;                // NoSquare unless the side to move can capture en passant there
    Piece captured;                 // piece captured by the move that led here (NoPiece if none)
    Piece moved;                    // the piece that made that move (NoPiece: root, null move)
    Move move;                      // the move that led here (Move::none() for the root)
    Bitboard checkers;              // enemy pieces giving check to the side to move
    Bitboard blockers[ColorCount];  // pieces of either color shielding king c from a slider
    Bitboard pinners[ColorCount];   // sliders of color ~c that pin a piece to king c
    // Squares from which a piece of this type of the side to move would check the enemy king
    // (on today's occupancy; King: none), so that givesCheck() needs no attack generation.
    Bitboard checkSquares[PieceTypeCount];
};

enum class GameStatus {
    Ongoing,
    Checkmate,  // the side to move is mated
    Stalemate,
    ThreefoldRepetition,
    FiftyMoves,  // 100 plies without capture or pawn move (and not mate)
    InsufficientMaterial
};

class Position {
  public:
    // The standard start position.
    Position();

    // Strict FEN reading: six fields (the two counters may be omitted; they default to "0 1").
    // On failure returns nullopt and, if error is given, stores the reason.
    static std::optional<Position> fromFen(std::string_view fen, std::string* error = nullptr);
    static Position startPosition() { return Position(); }
    std::string toFen() const;

    // Plays a legal move; unmakeMove() undoes the last one.
    void makeMove(Move m);
    // key() after makeMove(m), read without making it, so that a search can prefetch the table
    // entry while the move is made; makeMove computes its key with it. Exact except for a double
    // pawn push that leaves an en-passant capture possible (makeMove then adds the file's key;
    // this does not).
    Key keyAfter(Move m) const;
    void unmakeMove();
    // Passes the turn (the side to move must not be in check).
    void makeNullMove();
    void unmakeNullMove();

    // --- Board --------------------------------------------------------------------------------
    Color sideToMove() const { return sideToMove_; }
    Bitboard pieces() const { return byType_[NoPieceType]; }
    Bitboard pieces(Color c) const { return byColor_[c]; }
    Bitboard pieces(PieceType pt) const { return byType_[pt]; }
    Bitboard pieces(PieceType a, PieceType b) const { return byType_[a] | byType_[b]; }
    Bitboard pieces(Color c, PieceType pt) const { return byColor_[c] & byType_[pt]; }
    Bitboard pieces(Color c, PieceType a, PieceType b) const {
        return byColor_[c] & (byType_[a] | byType_[b]);
    }
    Piece pieceOn(Square s) const { return board_[s]; }
    bool isEmpty(Square s) const { return board_[s] == NoPiece; }
    Square kingSquare(Color c) const { return lsb(pieces(c, King)); }
    int count(Color c, PieceType pt) const { return popcount(pieces(c, pt)); }

    // --- State --------------------------------------------------------------------------------
    std::uint8_t castlingRights() const { return st_->castling; }
    bool canCastle(CastlingRights r) const { return (st_->castling & r) != 0; }
    Square epSquare() const { return st_->epSquare; }
    int rule50() const { return st_->rule50; }
    // Plies played since the position given to fromFen(), plus the plies implied by its counters.
    int gamePly() const { return gamePly_; }
    int fullmoveNumber() const { return 1 + gamePly_ / 2; }
    Key key() const { return st_->key; }
    Key pawnKey() const { return st_->pawnKey; }
    Key materialKey() const { return st_->materialKey; }
    Key nonPawnKey(Color c) const { return st_->nonPawnKey[c]; }
    Piece capturedPiece() const { return st_->captured; }  // by the last move
    Move lastMove() const { return st_->move; }
    // Number of moves made on this object (the depth of the unmake stack).
    int historyLength() const { return int(states_.size()) - 1; }
    // The state of the position `plies` moves ago (0: now; at most historyLength()). Its move,
    // moved and captured pieces say how the board changed since: the network's accumulators
    // (eval/nnue.h) follow those changes instead of reading the whole board again.
    const StateInfo& stateBack(int plies) const { return states_[states_.size() - 1 - plies]; }

    // --- Checks and attacks -------------------------------------------------------------------
    Bitboard checkers() const { return st_->checkers; }
    bool inCheck() const { return st_->checkers != 0; }
    // Pieces (of either color) that are the only piece between king c and an enemy slider.
    Bitboard blockersForKing(Color c) const { return st_->blockers[c]; }
    Bitboard pinned(Color c) const { return st_->blockers[c] & pieces(c); }
    Bitboard attackersTo(Square s, Bitboard occupied) const;
    Bitboard attackersTo(Square s) const { return attackersTo(s, pieces()); }
    bool isAttackedBy(Color c, Square s) const { return (attackersTo(s) & pieces(c)) != 0; }
    // Every square a piece of color c attacks (or defends) on today's occupancy.
    Bitboard attackedBy(Color c) const;
    // Squares from which a piece of type pt of the side to move would give direct check.
    Bitboard checkSquares(PieceType pt) const { return st_->checkSquares[pt]; }

    // --- Moves --------------------------------------------------------------------------------
    Piece movedPiece(Move m) const { return board_[m.from()]; }
    bool isCapture(Move m) const {
        return (!isEmpty(m.to()) && !m.isCastling()) || m.isEnPassant();
    }
    bool isCaptureOrPromotion(Move m) const { return isCapture(m) || m.isPromotion(); }
    // The type of the piece m takes: Pawn for en passant, NoPieceType for a move that takes
    // nothing (castling included).
    PieceType capturedType(Move m) const {
        if (m.isEnPassant()) return Pawn;
        return m.isCastling() ? NoPieceType : typeOf(board_[m.to()]);
    }
    // True when m (any 16-bit value: a TT move, a killer) is a legal move here.
    bool isLegal(Move m) const;
    // True when m could be produced by a pseudo-legal generator here (ignores pins and checks).
    bool isPseudoLegal(Move m) const;
    // True when the legal move m puts the opponent in check.
    bool givesCheck(Move m) const;

    // --- Game state ---------------------------------------------------------------------------
    // Has the current position occurred before (since the last irreversible move)? With
    // ply > 0, a repetition counts as a draw when its first occurrence lies within the last ply
    // plies (inside the search tree) or when it occurred twice before (a real threefold).
    bool isRepetition(int ply) const;
    // Draw by fifty-move rule, repetition (as isRepetition) or insufficient material. Does not
    // detect stalemate (the search finds no moves). Note the fifty-move rule yields to mate.
    bool isDraw(int ply) const;
    // How many times the current position occurred in the game so far, counting this one.
    int repetitionCount() const;
    // Neither side can ever mate: K v K, K+minor v K, or only bishops all on one square color.
    bool hasInsufficientMaterial() const;
    // The state of the game in this position (for the server and game tests).
    GameStatus gameStatus() const;

    // --- Debugging and tests ------------------------------------------------------------------
    // The keys recomputed from scratch.
    Key computeKey() const;
    Key computePawnKey() const;
    Key computeMaterialKey() const;
    Key computeNonPawnKey(Color c) const;
    // Checks internal invariants (bitboards vs mailbox, keys, checkers). Returns the first
    // problem found, or an empty string.
    std::string validate() const;
    // A text diagram of the board, followed by the FEN and key (UCI `d`).
    std::string pretty() const;

  private:
    void clear();
    void copyBoard(const Position& other);
    void putPiece(Piece p, Square s);
    void removePiece(Square s);
    void movePiece(Square from, Square to);
    void updateCheckInfo();
    void updateCheckSquares();
    void setEpSquareIfCapturable(Square ep);
    bool epCaptureIsLegal(Square from) const;
    std::optional<std::string> readFen(std::string_view fen);

    Bitboard byType_[PieceTypeCount] = {};  // [NoPieceType] holds all pieces
    Bitboard byColor_[ColorCount] = {};
    Piece board_[SquareCount] = {};
    Color sideToMove_ = White;
    int gamePly_ = 0;
    std::vector<StateInfo> states_;
    StateInfo* st_ = nullptr;

  public:
    Position(const Position& other);
    Position& operator=(const Position& other);
    Position(Position&& other) noexcept;
    Position& operator=(Position&& other) noexcept;
};

// --- Piece placement (bitboards and mailbox only; keys are the caller's business) ---------------

inline void Position::putPiece(Piece p, Square s) {
    const Bitboard b = squareBB(s);
    board_[s] = p;
    byType_[NoPieceType] |= b;
    byType_[typeOf(p)] |= b;
    byColor_[colorOf(p)] |= b;
}

inline void Position::removePiece(Square s) {
    const Piece p = board_[s];
    const Bitboard b = squareBB(s);
    byType_[NoPieceType] ^= b;
    byType_[typeOf(p)] ^= b;
    byColor_[colorOf(p)] ^= b;
    board_[s] = NoPiece;
}

inline void Position::movePiece(Square from, Square to) {
    const Piece p = board_[from];
    const Bitboard fromTo = squareBB(from) | squareBB(to);
    byType_[NoPieceType] ^= fromTo;
    byType_[typeOf(p)] ^= fromTo;
    byColor_[colorOf(p)] ^= fromTo;
    board_[from] = NoPiece;
    board_[to] = p;
}

}  // namespace outpost
