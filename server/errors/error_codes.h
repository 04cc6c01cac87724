// Every error code the server sends, in one place: HTTP answers ({"error": {code, message}}) and
// WebSocket errors ({type: "error", code, message}) alike. One line per code: its name, the HTTP
// status it is sent with, and what it means.
//
// `api/openapi.yaml` lists exactly these codes in `Error.code`'s enum, and the server sends no
// code spelled as a string literal anywhere else (tests/contract/error_codes.py checks both). To
// add a code: add its line here, use it as `errors::<name>`, and add it to the enum.
#pragma once

#include <string_view>

namespace outpost::server {

// X(name, HTTP status, meaning)
// clang-format off
#define OUTPOST_ERROR_CODES(X) \
    X(bad_json, 400, "the body (or a WebSocket message) is not valid JSON, or names a key twice in one object") \
    X(bad_request, 400, "malformed: a wrong type, a missing or unknown field or query parameter") \
    X(unauthorized, 401, "no player token (Authorization: Bearer) where one is needed") \
    X(forbidden, 403, "a token of another game, or a WebSocket upgrade from a foreign Origin") \
    X(not_found, 404, "no such game, review, file or route (WebSocket: no such search)") \
    X(not_cached, 404, "no cached analysis of the position with that many lines") \
    X(method_not_allowed, 405, "the route does not take this method (Allow says which)") \
    X(not_acceptable, 406, "Accept refuses every media type the route answers with") \
    X(game_over, 409, "the game is over (422 for an analysis of a position without legal moves)") \
    X(not_your_turn, 409, "the token's side is not to move (or may not take back)") \
    X(version_conflict, 409, "the game is not at the version asked, or a change raced this one") \
    X(nothing_to_take_back, 409, "there is no move of this side to take back") \
    X(takeback_needs_consent, 409, "between people a takeback needs the other side's consent") \
    X(no_draw_offer, 409, "there is no draw offer to answer") \
    X(no_takeback_offer, 409, "there is no takeback request to answer") \
    X(too_late_to_abort, 409, "both sides have moved: the game can no longer be aborted") \
    X(abort_instead, 409, "a claim before both sides have moved: abort the game instead") \
    X(opponent_present, 409, "a claim while the other side is connected") \
    X(opponent_not_gone_long_enough, 409, "a claim before the other side was gone long enough") \
    X(not_between_people, 409, "a claim in a game against the engine") \
    X(game_not_over, 409, "a rematch before the game is over") \
    X(no_rematch_offer, 409, "no rematch offer to answer, or the rematch is made already") \
    X(seek_taken, 409, "the seek was accepted by someone else") \
    X(seek_closed, 409, "the seek is cancelled or expired") \
    X(own_seek, 409, "accepting one's own seek (with its seek token)") \
    X(too_large, 413, "the body, or a pasted game, is too large") \
    X(idempotency_key_reused, 422, "the Idempotency-Key was used by this client for a request with another body") \
    X(invalid_value, 422, "well-formed but out of range (a limit, multipv, level or clock)") \
    X(invalid_fen, 422, "the FEN cannot be read (the message says why)") \
    X(illegal_move, 422, "a move that is not legal in its position, or ambiguous SAN") \
    X(bad_pgn, 422, "the PGN text is malformed (an unterminated comment, variation or tag), or has no moves") \
    X(rate_limited, 429, "this client runs as many searches or reviews as it may") \
    X(too_many_games, 429, "this client created as many games this minute as it may") \
    X(too_many_streams, 429, "this client has as many game streams open as it may") \
    X(too_many_websockets, 429, "this client has as many WebSockets open as it may") \
    X(too_many_subscriptions, 429, "this WebSocket follows as many games as it may") \
    X(too_many_connections, 429, "this client has as many connections open as it may") \
    X(too_many_seeks, 429, "this client has as many open seeks as it may") \
    X(internal, 500, "the server failed (it was logged; the server goes on serving)") \
    X(corrupt_game, 500, "the stored game cannot be read or replayed") \
    X(corrupt_review, 500, "the stored review cannot be read") \
    X(overloaded, 503, "every searcher is busy and the queue is full") \
    X(at_capacity, 503, "new games against the engine wait: running games' replies lag") \
    X(shutting_down, 503, "this replica drains: retry, the load balancer sends you to another") \
    X(store_unavailable, 503, "the game store cannot be reached, or refuses writes: too few replicas in sync") \
    X(write_unconfirmed, 503, "the change reached the store but too few replicas confirmed it: read the game")
// clang-format on

// The codes as constants: errors::not_your_turn is "not_your_turn".
namespace errors {
#define OUTPOST_ERROR_CODE_CONSTANT(name, status, meaning) \
    inline constexpr const char* name = #name;
OUTPOST_ERROR_CODES(OUTPOST_ERROR_CODE_CONSTANT)
#undef OUTPOST_ERROR_CODE_CONSTANT
}  // namespace errors

struct ErrorCodeInfo {
    std::string_view code;
    unsigned httpStatus;
    std::string_view meaning;
};

inline constexpr ErrorCodeInfo kErrorCodes[] = {
#define OUTPOST_ERROR_CODE_INFO(name, status, meaning) {#name, status, meaning},
    OUTPOST_ERROR_CODES(OUTPOST_ERROR_CODE_INFO)
#undef OUTPOST_ERROR_CODE_INFO
};

// The entry of `code`, or null when the server has no such code.
constexpr const ErrorCodeInfo* findErrorCode(std::string_view code) {
    for (const ErrorCodeInfo& info : kErrorCodes) {
        if (info.code == code) return &info;
    }
    return nullptr;
}

}  // namespace outpost::server
