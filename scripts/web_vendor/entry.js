// The one ES module the playground imports (psl/web/static/vendor/codemirror.js): only the
// parts of CodeMirror 6 that app.js uses, so the bundle stays small.
export { EditorState, StateEffect, StateField, Compartment } from "@codemirror/state";
export {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars,
} from "@codemirror/view";
export {
  StreamLanguage, HighlightStyle, syntaxHighlighting, bracketMatching, indentOnInput,
  defaultHighlightStyle,
} from "@codemirror/language";
export { tags } from "@lezer/highlight";
export { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
export { searchKeymap, highlightSelectionMatches } from "@codemirror/search";
export { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
export { linter, lintGutter, setDiagnostics, forEachDiagnostic, lintKeymap } from "@codemirror/lint";
