// What this browser keeps of each game in localStorage: the token that moves its side (the key to
// the game; only this browser has it), the other side's token where this browser holds both (an
// analysis board), and for a game between people, which side this browser plays.
export type Side = 'white' | 'black';

const TOKEN_KEY_PREFIX = 'outpost.token.';
/** An analysis board's second token (Black's). */
const INVITE_KEY_PREFIX = 'outpost.invite.';
/** Games between people: the side this browser plays. */
const SIDE_KEY_PREFIX = 'outpost.side.';
const ORIENTATION_KEY_PREFIX = 'outpost.orientation.';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or full: the game still plays, it is just not found again after a reload.
  }
}

const asSide = (value: string | null): Side | null => (value === 'white' || value === 'black' ? value : null);

export const kept = {
  token: (id: string) => read(TOKEN_KEY_PREFIX + id),
  setToken: (id: string, token: string) => write(TOKEN_KEY_PREFIX + id, token),
  inviteToken: (id: string) => read(INVITE_KEY_PREFIX + id),
  setInviteToken: (id: string, token: string) => write(INVITE_KEY_PREFIX + id, token),
  /** The side this browser plays in a game between people (null: not such a game, or none). */
  peopleSide: (id: string) => asSide(read(SIDE_KEY_PREFIX + id)),
  setPeopleSide: (id: string, side: Side) => write(SIDE_KEY_PREFIX + id, side),
  orientation: (id: string) => asSide(read(ORIENTATION_KEY_PREFIX + id)),
  setOrientation: (id: string, side: Side) => write(ORIENTATION_KEY_PREFIX + id, side),
};
