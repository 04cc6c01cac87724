#include "core/position.h"

#include <algorithm>
#include <sstream>

#include "core/movegen.h"
#include "core/zobrist.h"

namespace outpost {

namespace {

using zobrist::kKeys;

// Enough history for long games plus a deep search without reallocating.
constexpr std::size_t kInitialHistory = 1024;

// The castling rights that survive a move touching square s (a king or rook leaving its start
// square, or a rook being captured there).
constexpr std::array<std::uint8_t, SquareCount> kCastlingKeep = [] {
    std::array<std::uint8_t, SquareCount> keep{};
    for (auto& k : keep) k = AllCastling;
    keep[E1] = AllCastling & ~WhiteCastling;
    keep[H1] = AllCastling & ~WhiteKingSide;
    keep[A1] = AllCastling & ~WhiteQueenSide;
    keep[E8] = AllCastling & ~BlackCastling;
    keep[H8] = AllCastling & ~BlackKingSide;
    keep[A8] = AllCastling & ~BlackQueenSide;
    return keep;
}();

// The rook's journey in a castling move, given the king's destination.
struct RookMove {
    Square from, to;
};
constexpr RookMove castlingRook(Square kingTo) {
    switch (kingTo) {
        case G1:
            return {H1, F1};
        case C1:
            return {A1, D1};
        case G8:
            return {H8, F8};
        default:
            return {A8, D8};
    }
}

constexpr std::string_view kPieceChars = " PNBRQK  pnbrqk";

}  // namespace

// --- Construction and copying -------------------------------------------------------------------

Position::Position() {
    states_.reserve(kInitialHistory);
    readFen(kStartFen);
}

// The board itself (bitboards, mailbox, side, ply); the state stack is the caller's, since copying
// and moving treat it differently, and st_ must point into this object's own stack.
void Position::copyBoard(const Position& other) {
    std::copy(std::begin(other.byType_), std::end(other.byType_), byType_);
    std::copy(std::begin(other.byColor_), std::end(other.byColor_), byColor_);
    std::copy(std::begin(other.board_), std::end(other.board_), board_);
    sideToMove_ = other.sideToMove_;
    gamePly_ = other.gamePly_;
}

Position::Position(const Position& other) : states_(other.states_) {
    copyBoard(other);
    st_ = &states_.back();
}

Position& Position::operator=(const Position& other) {
    if (this != &other) {
        copyBoard(other);
        states_ = other.states_;
        st_ = &states_.back();
    }
    return *this;
}

Position::Position(Position&& other) noexcept : states_(std::move(other.states_)) {
    copyBoard(other);
    st_ = &states_.back();
    other.st_ = nullptr;
}

Position& Position::operator=(Position&& other) noexcept {
    if (this != &other) {
        copyBoard(other);
        states_ = std::move(other.states_);
        st_ = &states_.back();
        other.st_ = nullptr;
    }
    return *this;
}

void Position::clear() {
    std::fill(std::begin(byType_), std::end(byType_), 0);
    std::fill(std::begin(byColor_), std::end(byColor_), 0);
    std::fill(std::begin(board_), std::end(board_), NoPiece);
    sideToMove_ = White;
    gamePly_ = 0;
    states_.clear();
    states_.push_back(StateInfo{});
    st_ = &states_.back();
    st_->epSquare = NoSquare;
    st_->captured = NoPiece;
    st_->moved = NoPiece;
    st_->move = Move::none();
}

// --- Attacks and check information --------------------------------------------------------------

Bitboard Position::attackersTo(Square s, Bitboard occupied) const {
    return (pawnAttacks(Black, s) & pieces(White, Pawn)) |
           (pawnAttacks(White, s) & pieces(Black, Pawn)) | (knightAttacks(s) & pieces(Knight)) |
           (bishopAttacks(s, occupied) & pieces(Bishop, Queen)) |
           (rookAttacks(s, occupied) & pieces(Rook, Queen)) | (kingAttacks(s) & pieces(King));
}

Bitboard Position::attackedBy(Color c) const {
    const Bitboard occupied = pieces();
    Bitboard attacked = pawnAttacksOf(c, pieces(c, Pawn));
    for (Bitboard b = pieces(c, Knight); b;) attacked |= knightAttacks(popLsb(b));
    for (Bitboard b = pieces(c, Bishop, Queen); b;) attacked |= bishopAttacks(popLsb(b), occupied);
    for (Bitboard b = pieces(c, Rook, Queen); b;) attacked |= rookAttacks(popLsb(b), occupied);
    return attacked | kingAttacks(kingSquare(c));
}

void Position::updateCheckInfo() {
    const Color us = sideToMove_;
    st_->checkers = attackersTo(kingSquare(us)) & pieces(~us);
    for (const Color c : {White, Black}) {
        const Square ksq = kingSquare(c);
        Bitboard snipers = ((rookPseudoAttacks(ksq) & pieces(Rook, Queen)) |
                            (bishopPseudoAttacks(ksq) & pieces(Bishop, Queen))) &
                           pieces(~c);
        // Exactly one piece (of either color, snipers included) between the king and a sniper.
        Bitboard blockers = 0, pinners = 0;
        while (snipers) {
            const Square s = popLsb(snipers);
            const Bitboard b = betweenBB(ksq, s) & pieces();
            if (b && !moreThanOne(b)) {
                blockers |= b;
                if (b & pieces(c)) pinners |= squareBB(s);
            }
        }
        st_->blockers[c] = blockers;
        st_->pinners[c] = pinners;
    }
    updateCheckSquares();
}

void Position::updateCheckSquares() {
    const Square ksq = kingSquare(~sideToMove_);
    StateInfo& st = *st_;
    st.checkSquares[NoPieceType] = 0;
    st.checkSquares[Pawn] = pawnAttacks(~sideToMove_, ksq);
    st.checkSquares[Knight] = knightAttacks(ksq);
    st.checkSquares[Bishop] = bishopAttacks(ksq, pieces());
    st.checkSquares[Rook] = rookAttacks(ksq, pieces());
    st.checkSquares[Queen] = st.checkSquares[Bishop] | st.checkSquares[Rook];
    st.checkSquares[King] = 0;
}

// Is the en-passant capture by the pawn on `from` legal? Both pawns leave their rank at once,
// which can expose the king to a rook or queen along that rank (or a bishop on a diagonal).
bool Position::epCaptureIsLegal(Square from) const {
    const Color us = sideToMove_;
    const Square to = st_->epSquare;
    const Square captured = Square(to - pawnPush(us));
    const Square ksq = kingSquare(us);
    const Bitboard occupied = (pieces() ^ squareBB(from) ^ squareBB(captured)) | squareBB(to);
    const Bitboard checkersAfter =
        ((rookAttacks(ksq, occupied) & pieces(~us, Rook, Queen)) |
         (bishopAttacks(ksq, occupied) & pieces(~us, Bishop, Queen)) |
         (knightAttacks(ksq) & pieces(~us, Knight)) |
         (pawnAttacks(us, ksq) & pieces(~us, Pawn) & ~squareBB(captured)));
    return checkersAfter == 0;
}

// Sets the en-passant square (and its key) only when the side to move has a legal capture there.
void Position::setEpSquareIfCapturable(Square ep) {
    const Color us = sideToMove_;
    Bitboard capturers = pawnAttacks(~us, ep) & pieces(us, Pawn);
    if (!capturers) return;
    st_->epSquare = ep;
    while (capturers)
        if (epCaptureIsLegal(popLsb(capturers))) {
            st_->key ^= kKeys.epFile[fileOf(ep)];
            return;
        }
    st_->epSquare = NoSquare;
}

// --- Making and unmaking moves -----------------------------------------------------------------

void Position::makeMove(Move m) {
    // The key is keyAfter's, the one place that knows how a move changes it (the search prefetches
    // with the same function); only an en-passant file this move creates is added below.
    const Key key = keyAfter(m);
    states_.push_back(*st_);
    StateInfo* st = st_ = &states_.back();

    const Color us = sideToMove_, them = ~us;
    const Square from = m.from(), to = m.to();
    const Piece pc = board_[from];

    st->epSquare = NoSquare;
    ++st->rule50;
    ++st->pliesFromNull;
    st->move = m;
    st->captured = NoPiece;
    st->moved = pc;

    if (m.isCastling()) {
        const RookMove rook = castlingRook(to);
        const Piece rookPiece = board_[rook.from];
        movePiece(from, to);
        movePiece(rook.from, rook.to);
        st->nonPawnKey[us] ^= kKeys.psq[pc][from] ^ kKeys.psq[pc][to] ^
                              kKeys.psq[rookPiece][rook.from] ^ kKeys.psq[rookPiece][rook.to];
    } else {
        const Square capSq = m.isEnPassant() ? Square(to - pawnPush(us)) : to;
        const Piece captured = board_[capSq];
        if (captured != NoPiece) {
            st->captured = captured;
            if (typeOf(captured) == Pawn)
                st->pawnKey ^= kKeys.psq[captured][capSq];
            else
                st->nonPawnKey[them] ^= kKeys.psq[captured][capSq];
            removePiece(capSq);
            st->materialKey ^= kKeys.psq[captured][count(them, typeOf(captured))];
            st->rule50 = 0;
        }
        movePiece(from, to);

        if (typeOf(pc) == Pawn) {
            st->rule50 = 0;
            st->pawnKey ^= kKeys.psq[pc][from];
            if (m.isPromotion()) {
                const Piece promoted = makePiece(us, m.promotionType());
                removePiece(to);
                st->materialKey ^= kKeys.psq[pc][count(us, Pawn)];
                st->materialKey ^= kKeys.psq[promoted][count(us, m.promotionType())];
                st->nonPawnKey[us] ^= kKeys.psq[promoted][to];
                putPiece(promoted, to);
            } else {
                st->pawnKey ^= kKeys.psq[pc][to];
            }
        } else {
            st->nonPawnKey[us] ^= kKeys.psq[pc][from] ^ kKeys.psq[pc][to];
        }
    }

    st->castling &= kCastlingKeep[from] & kCastlingKeep[to];
    st->key = key;
    sideToMove_ = them;
    ++gamePly_;
    updateCheckInfo();

    if (typeOf(pc) == Pawn && (int(to) ^ int(from)) == 16)
        setEpSquareIfCapturable(Square((int(from) + int(to)) / 2));
}

Key Position::keyAfter(Move m) const {
    const Square from = m.from(), to = m.to();
    const Piece pc = board_[from];
    Key key = st_->key ^ kKeys.side;
    if (st_->epSquare != NoSquare) key ^= kKeys.epFile[fileOf(st_->epSquare)];
    if (m.isCastling()) {
        const RookMove rook = castlingRook(to);
        const Piece rookPiece = board_[rook.from];
        key ^= kKeys.psq[pc][from] ^ kKeys.psq[pc][to] ^ kKeys.psq[rookPiece][rook.from] ^
               kKeys.psq[rookPiece][rook.to];
    } else {
        const Square capSq = m.isEnPassant() ? Square(to - pawnPush(sideToMove_)) : to;
        if (const Piece captured = board_[capSq]; captured != NoPiece)
            key ^= kKeys.psq[captured][capSq];
        const Piece placed = m.isPromotion() ? makePiece(sideToMove_, m.promotionType()) : pc;
        key ^= kKeys.psq[pc][from] ^ kKeys.psq[placed][to];
    }
    const std::uint8_t rights = st_->castling & kCastlingKeep[from] & kCastlingKeep[to];
    if (rights != st_->castling) key ^= kKeys.castling[st_->castling] ^ kKeys.castling[rights];
    return key;
}

void Position::unmakeMove() {
    const Move m = st_->move;
    const Square from = m.from(), to = m.to();
    sideToMove_ = ~sideToMove_;
    const Color us = sideToMove_;

    if (m.isCastling()) {
        const RookMove rook = castlingRook(to);
        movePiece(to, from);
        movePiece(rook.to, rook.from);
    } else {
        if (m.isPromotion()) {
            removePiece(to);
            putPiece(makePiece(us, Pawn), to);
        }
        movePiece(to, from);
        if (st_->captured != NoPiece)
            putPiece(st_->captured, m.isEnPassant() ? Square(to - pawnPush(us)) : to);
    }

    states_.pop_back();
    st_ = &states_.back();
    --gamePly_;
}

void Position::makeNullMove() {
    states_.push_back(*st_);
    StateInfo* st = st_ = &states_.back();
    st->key ^= kKeys.side;
    if (st->epSquare != NoSquare) {
        st->key ^= kKeys.epFile[fileOf(st->epSquare)];
        st->epSquare = NoSquare;
    }
    ++st->rule50;
    st->pliesFromNull = 0;
    st->move = Move::null();
    st->captured = NoPiece;
    st->moved = NoPiece;
    // The board is unchanged, so the blockers stay valid; the side now to move cannot be in
    // check because the side that passed was not.
    st->checkers = 0;
    sideToMove_ = ~sideToMove_;
    ++gamePly_;
    updateCheckSquares();  // the other king's
}

void Position::unmakeNullMove() {
    states_.pop_back();
    st_ = &states_.back();
    sideToMove_ = ~sideToMove_;
    --gamePly_;
}

// --- Move properties ----------------------------------------------------------------------------

bool Position::isPseudoLegal(Move m) const {
    if (!m.isOk()) return false;
    // Only promotions may carry a promotion piece (generated moves leave those bits zero).
    if (!m.isPromotion() && m.promotionType() != Knight) return false;
    const Color us = sideToMove_;
    const Square from = m.from(), to = m.to();
    const Piece pc = board_[from];
    if (pc == NoPiece || colorOf(pc) != us) return false;
    const PieceType pt = typeOf(pc);

    if (m.isCastling()) {
        if (pt != King) return false;
        CastlingRights right;
        switch (relativeSquare(us, to)) {
            case G1:
                right = us == White ? WhiteKingSide : BlackKingSide;
                break;
            case C1:
                right = us == White ? WhiteQueenSide : BlackQueenSide;
                break;
            default:
                return false;
        }
        if (from != relativeSquare(us, E1) || !canCastle(right)) return false;
        return (betweenBB(from, castlingRook(to).from) & pieces()) == 0;
    }
    if (pieces(us) & squareBB(to)) return false;
    if (m.isEnPassant())
        return pt == Pawn && to == st_->epSquare && (pawnAttacks(us, from) & squareBB(to));
    if (pt == Pawn) {
        // Promotions must be flagged, and only pawn moves to the last rank are promotions.
        if (m.isPromotion() != (relativeRank(us, to) == Rank8)) return false;
        if (pawnAttacks(us, from) & pieces(~us) & squareBB(to)) return true;
        if (!isEmpty(to)) return false;
        if (int(to) == int(from) + pawnPush(us)) return true;
        return relativeRank(us, from) == Rank2 && int(to) == int(from) + 2 * pawnPush(us) &&
               isEmpty(Square(int(from) + pawnPush(us)));
    }
    if (m.isPromotion()) return false;
    return (attacksBB(pt, from, pieces()) & squareBB(to)) != 0;
}

bool Position::isLegal(Move m) const {
    if (!isPseudoLegal(m)) return false;
    const Color us = sideToMove_, them = ~us;
    const Square from = m.from(), to = m.to();
    const Square ksq = kingSquare(us);

    if (m.isCastling()) {
        if (inCheck()) return false;
        // Every square the king crosses or lands on must be safe.
        const Bitboard path = betweenBB(from, to) | squareBB(to);
        for (Bitboard b = path; b;)
            if (attackersTo(popLsb(b)) & pieces(them)) return false;
        return true;
    }
    if (m.isEnPassant()) return epCaptureIsLegal(from);
    if (typeOf(board_[from]) == King)
        return (attackersTo(to, pieces() ^ squareBB(from)) & pieces(them)) == 0;

    const Bitboard checkers = st_->checkers;
    if (checkers) {
        if (moreThanOne(checkers)) return false;
        const Square checker = lsb(checkers);
        if (!((betweenBB(ksq, checker) | checkers) & squareBB(to))) return false;
    }
    return !(pinned(us) & squareBB(from)) || aligned(from, to, ksq);
}

bool Position::givesCheck(Move m) const {
    const Color us = sideToMove_;
    const Square from = m.from(), to = m.to();
    const Square ksq = kingSquare(~us);
    const Bitboard kingBB = squareBB(ksq);
    const Bitboard occupiedAfter = (pieces() ^ squareBB(from)) | squareBB(to);

    // Direct check by the moved piece: its square is one the king can be checked from. Today's
    // occupancy gives the same answer as the board after the move, because the square it leaves
    // cannot lie between the two (it would check the king already, on our move). A promoted
    // piece can check through the square its pawn left, so it is looked at on the board after.
    if (m.isPromotion()) {
        if (attacksBB(m.promotionType(), to, occupiedAfter) & kingBB) return true;
    } else if (st_->checkSquares[typeOf(board_[from])] & squareBB(to)) {
        return true;
    }
    // Discovered check: the moved piece was the only thing between a slider of ours and the king.
    if ((st_->blockers[~us] & squareBB(from)) && !aligned(from, to, ksq)) return true;

    switch (m.kind()) {
        case MoveKind::EnPassant: {
            const Square captured = Square(to - pawnPush(us));
            const Bitboard occ = occupiedAfter ^ squareBB(captured);
            return ((rookAttacks(ksq, occ) & pieces(us, Rook, Queen)) |
                    (bishopAttacks(ksq, occ) & pieces(us, Bishop, Queen))) != 0;
        }
        case MoveKind::Castling: {
            const RookMove rook = castlingRook(to);
            const Bitboard occ = (occupiedAfter ^ squareBB(rook.from)) | squareBB(rook.to);
            return (rookAttacks(rook.to, occ) & kingBB) != 0;
        }
        default:
            return false;
    }
}

// --- Game state
// -----------------------------------------------------------------------------------

bool Position::isRepetition(int ply) const {
    const int end = std::min({int(st_->rule50), int(st_->pliesFromNull), historyLength()});
    const int last = int(states_.size()) - 1;
    int seen = 0;
    for (int back = 4; back <= end; back += 2) {
        if (states_[last - back].key == st_->key) {
            if (back < ply || ++seen >= 2) return true;
        }
    }
    return false;
}

int Position::repetitionCount() const {
    const int end = std::min({int(st_->rule50), int(st_->pliesFromNull), historyLength()});
    const int last = int(states_.size()) - 1;
    int count = 1;
    for (int back = 4; back <= end; back += 2)
        if (states_[last - back].key == st_->key) ++count;
    return count;
}

bool Position::hasInsufficientMaterial() const {
    if (pieces(Pawn, Rook) || pieces(Queen)) return false;
    const Bitboard minors = pieces(Knight, Bishop);
    if (!moreThanOne(minors)) return true;  // K v K or K+minor v K
    // Only bishops left, all on squares of one color: no checkmate is possible.
    if (pieces(Knight)) return false;
    const Bitboard bishops = pieces(Bishop);
    return (bishops & kLightSquares) == 0 || (bishops & kDarkSquares) == 0;
}

bool Position::isDraw(int ply) const {
    if (st_->rule50 >= 100 && (!inCheck() || hasLegalMove(*this))) return true;
    return isRepetition(ply) || hasInsufficientMaterial();
}

GameStatus Position::gameStatus() const {
    if (!hasLegalMove(*this)) return inCheck() ? GameStatus::Checkmate : GameStatus::Stalemate;
    if (hasInsufficientMaterial()) return GameStatus::InsufficientMaterial;
    if (st_->rule50 >= 100) return GameStatus::FiftyMoves;
    if (repetitionCount() >= 3) return GameStatus::ThreefoldRepetition;
    return GameStatus::Ongoing;
}

// --- Keys from scratch, validation, printing
// ------------------------------------------------------

Key Position::computeKey() const {
    Key key = 0;
    for (Bitboard b = pieces(); b;) {
        const Square s = popLsb(b);
        key ^= kKeys.psq[board_[s]][s];
    }
    if (sideToMove_ == Black) key ^= kKeys.side;
    key ^= kKeys.castling[st_->castling];
    if (st_->epSquare != NoSquare) key ^= kKeys.epFile[fileOf(st_->epSquare)];
    return key;
}

Key Position::computePawnKey() const {
    Key key = 0;
    for (Bitboard b = pieces(Pawn); b;) {
        const Square s = popLsb(b);
        key ^= kKeys.psq[board_[s]][s];
    }
    return key;
}

Key Position::computeMaterialKey() const {
    Key key = 0;
    for (const Color c : {White, Black})
        for (int pt = Pawn; pt <= King; ++pt)
            for (int i = 0; i < count(c, PieceType(pt)); ++i)
                key ^= kKeys.psq[makePiece(c, PieceType(pt))][i];
    return key;
}

Key Position::computeNonPawnKey(Color c) const {
    Key key = 0;
    for (Bitboard b = pieces(c) & ~pieces(Pawn); b;) {
        const Square s = popLsb(b);
        key ^= kKeys.psq[board_[s]][s];
    }
    return key;
}

std::string Position::validate() const {
    Bitboard all = 0;
    for (int sq = 0; sq < SquareCount; ++sq) {
        const Piece p = board_[sq];
        const Bitboard b = squareBB(Square(sq));
        if (p == NoPiece) {
            if (pieces() & b) return "occupied bitboard has an empty square";
            continue;
        }
        if (!(pieces(colorOf(p), typeOf(p)) & b)) return "mailbox and bitboards disagree";
        all |= b;
    }
    if (all != pieces()) return "occupied bitboard disagrees with the mailbox";
    if ((pieces(White) & pieces(Black)) || (pieces(White) | pieces(Black)) != pieces())
        return "color bitboards are inconsistent";
    if (count(White, King) != 1 || count(Black, King) != 1) return "not one king per side";
    if (computeKey() != key()) return "key differs from the key computed from scratch";
    if (computePawnKey() != pawnKey()) return "pawn key differs";
    if (computeMaterialKey() != materialKey()) return "material key differs";
    for (const Color c : {White, Black})
        if (computeNonPawnKey(c) != nonPawnKey(c)) return "non-pawn key differs";
    if ((attackersTo(kingSquare(sideToMove_)) & pieces(~sideToMove_)) != checkers())
        return "checkers are wrong";
    if (attackersTo(kingSquare(~sideToMove_)) & pieces(sideToMove_))
        return "the side not to move is in check";
    return {};
}

std::string Position::pretty() const {
    std::ostringstream out;
    out << "\n +---+---+---+---+---+---+---+---+\n";
    for (int r = 7; r >= 0; --r) {
        for (int f = 0; f < 8; ++f) out << " | " << kPieceChars[board_[makeSquare(f, r)]];
        out << " | " << (r + 1) << "\n +---+---+---+---+---+---+---+---+\n";
    }
    out << "   a   b   c   d   e   f   g   h\n\nFen: " << toFen() << "\nKey: " << std::hex
        << std::uppercase;
    out.width(16);
    out.fill('0');
    out << key() << std::dec << "\nCheckers:";
    for (Bitboard b = checkers(); b;) {
        const Square s = popLsb(b);
        out << ' ' << char('a' + fileOf(s)) << char('1' + rankOf(s));
    }
    out << "\n";
    return out.str();
}

}  // namespace outpost
