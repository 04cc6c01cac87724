// The `players` mode of outpost-server-load: simulated browser players for the capacity figures
// in docs/performance.md.
//
// Each player creates a game against the engine over HTTP (a level drawn from a mix: most at 1-5,
// some at 6-8, some with a clock), subscribes to it over a WebSocket, and plays random legal
// moves after a think time drawn between --think-min and --think-max ms. For every engine reply
// it records the time from sending its move to the first message carrying the reply, and that
// time minus the engine's own search time (`engineMove.timeMs`): the wait and overhead the
// server added. A finished game is followed by a new one. The run ends after --duration seconds.
// Creations refused with 429/503 are counted apart (admission), and retried after Retry-After.
#pragma once

#include <string>

namespace outpost::load {

struct PlayerOptions {
    std::string host = "127.0.0.1";
    std::string port = "8080";
    int players = 10;
    int durationSeconds = 30;
    int thinkMinMs = 1000;
    int thinkMaxMs = 5000;
    int seed = 1;
    int pid = 0;  // the server's pid: CPU and memory are read from /proc
    // Percent of games at levels 6-8 and with a clock; the rest are at levels 1-5.
    int highLevelPercent = 20;
    int clockPercent = 10;
    // A run passes when p99 of (reply time - search time) stays under this and nothing failed.
    int targetP99Ms = 100;
    bool json = false;  // one JSON object instead of the text summary
};

// Runs the scenario; prints the summary. Returns 0 when the run met its target, 1 otherwise.
int runPlayers(const PlayerOptions& options);

}  // namespace outpost::load
