// Undo of the analysis board's line edits (★ Main line, ↑ Up, ✕ Delete from here): each edit
// keeps the lines as they were and the line and position on screen, and Undo (Ctrl+Z / Cmd+Z,
// or the button by the line tools) brings them back, the latest edit first. An edit can be undone
// while the tree is as that edit left it: a move tried since (a line added) or another board on
// screen ends what can be undone, as undoing then would lose that move.
import type { VariationTree } from './variationTree';

/** What an edit changed: every line of the tree, the line on screen and the position of it shown. */
export interface LinesOnScreen {
  lines: string[][];
  shown: string[];
  ply: number;
}

interface Edit {
  /** What the edit did, in words ("Delete 2… Nc6"). */
  what: string;
  tree: VariationTree;
  before: LinesOnScreen;
  /** The tree's revision before and after the edit. */
  from: number;
  to: number;
}

/** The edits kept for Undo, the oldest forgotten first. */
const MAX_EDITS = 50;

export class LineUndo {
  private edits: Edit[] = [];

  /** The state before an edit of `tree` (take it before editing, record() it after). */
  static before(tree: VariationTree, shown: string[], ply: number): { lines: LinesOnScreen; revision: number } {
    return { lines: { lines: tree.lines(), shown: [...shown], ply }, revision: tree.revision };
  }

  /** An edit done to `tree`, from the state `before`. */
  record(what: string, tree: VariationTree, before: { lines: LinesOnScreen; revision: number }): void {
    // Edits before a change that was not one (a move tried) can no longer be undone.
    const top = this.edits.at(-1);
    if (top && (top.tree !== tree || top.to !== before.revision)) this.edits = [];
    this.edits.push({ what, tree, before: before.lines, from: before.revision, to: tree.revision });
    if (this.edits.length > MAX_EDITS) this.edits.shift();
  }

  /** What Undo would undo on `tree` now, in words; null when nothing. */
  undoable(tree: VariationTree): string | null {
    return this.last(tree)?.what ?? null;
  }

  /**
   * Undoes the latest edit of `tree`: `restore` puts its lines back. What was undone and the
   * state restored; null when there was nothing to undo.
   */
  undo(tree: VariationTree, restore: (state: LinesOnScreen) => void): { what: string; state: LinesOnScreen } | null {
    const edit = this.last(tree);
    if (!edit) return null;
    this.edits.pop();
    restore(edit.before);
    // The edit before it left the tree as this one found it: it can be undone next.
    const previous = this.edits.at(-1);
    if (previous && previous.tree === tree && previous.to === edit.from) previous.to = tree.revision;
    return { what: edit.what, state: edit.before };
  }

  private last(tree: VariationTree): Edit | null {
    const edit = this.edits.at(-1);
    return edit && edit.tree === tree && edit.to === tree.revision ? edit : null;
  }
}
