// Move and square notation: UCI long algebraic (e2e4, e7e8q, e1g1) and SAN (Nf3, exd5, O-O,
// e8=Q+). Writers expect legal moves. Readers return the legal move meant, or nullopt with a
// reason in *error (illegal, ambiguous, malformed).
//
// SAN reading is tolerant: promotion with or without '=' (e8Q, e8=Q, e8q), castling as O-O/0-0
// (and O-O-O/0-0-0), check/mate suffixes and annotations (+, #, !, ?) optional or even wrong, an
// 'x' that is missing or superfluous, and over-disambiguated moves (Ng1f3). A pawn capture may
// name only the files (exd). Lower-case 'b' as a file always means the b-file pawn, never a bishop.
// Coordinates with a separator (e2-e4, g1-f3, g1xf3, e1-g1) name the piece on the first square.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/position.h"
#include "core/types.h"

namespace outpost {

std::string squareToString(Square s);
std::optional<Square> squareFromString(std::string_view text);

// "0000" for Move::none() and Move::null().
std::string moveToUci(Move m);
std::optional<Move> moveFromUci(const Position& pos, std::string_view text,
                                std::string* error = nullptr);

std::string moveToSan(const Position& pos, Move m);
std::optional<Move> moveFromSan(const Position& pos, std::string_view text,
                                std::string* error = nullptr);

// Accepts either notation (UCI first, then SAN).
std::optional<Move> parseMove(const Position& pos, std::string_view text,
                              std::string* error = nullptr);

}  // namespace outpost
