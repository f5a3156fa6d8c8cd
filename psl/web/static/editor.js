// The CodeMirror 6 editor: PSL highlighting built from /api/language.json (the registry),
// diagnostics shown as lint markers, and a list beside them.
import {
  EditorState, EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars, StreamLanguage, HighlightStyle, syntaxHighlighting,
  bracketMatching, indentOnInput, tags, defaultKeymap, history, historyKeymap, indentWithTab,
  searchKeymap, highlightSelectionMatches, closeBrackets, closeBracketsKeymap, lintGutter,
  setDiagnostics, lintKeymap,
} from "./vendor/codemirror.js";

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A stream tokenizer for PSL (SPEC §1) from the language description. */
export function pslLanguage(lang) {
  const keywords = new Set(lang.keywords);
  const builtins = new Set(Object.keys(lang.builtins));
  const operators = new RegExp("^(?:" + lang.operators.map(escapeRegExp).join("|") + ")");
  const swizzle = new RegExp(`^[${lang.swizzle_letters}]{1,4}\\b`);
  return StreamLanguage.define({
    name: "psl",
    startState: () => ({ afterFun: false, afterDot: false }),
    token(stream, state) {
      if (stream.eatSpace()) return null;
      if (stream.match(lang.line_comment)) { stream.skipToEnd(); return "comment"; }
      if (state.afterDot) {
        state.afterDot = false;
        if (stream.match(swizzle)) return "propertyName";
      }
      if (stream.match(/^[0-9][0-9.]*/)) return "number";
      const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
      if (word) {
        const w = word[0];
        if (state.afterFun) { state.afterFun = false; return "variableName.definition"; }
        if (keywords.has(w)) { state.afterFun = w === "fun"; return "keyword"; }
        const name = lang.builtins_case_insensitive ? w.toLowerCase() : w;
        if (builtins.has(name) && stream.match(/^\s*\(/, false)) return "builtin";
        return "variableName";
      }
      const op = stream.match(operators);
      if (op) {
        if (op[0] === ".") { state.afterDot = true; return "punctuation"; }
        return /^[(){}]$/.test(op[0]) ? "bracket" : /^[,;]$/.test(op[0]) ? "punctuation" : "operator";
      }
      stream.next();
      return "invalid";
    },
    tokenTable: { builtin: tags.standard(tags.function(tags.variableName)) },
    languageData: { commentTokens: { line: lang.line_comment } },
  });
}

const pslHighlight = HighlightStyle.define([
  { tag: tags.keyword, color: "#c792ea" },
  { tag: tags.number, color: "#f78c6c" },
  { tag: tags.comment, color: "#697098", fontStyle: "italic" },
  { tag: tags.standard(tags.function(tags.variableName)), color: "#82aaff" },
  { tag: tags.definition(tags.variableName), color: "#ffcb6b" },
  { tag: tags.propertyName, color: "#89ddff" },
  { tag: tags.operator, color: "#89ddff" },
  { tag: tags.invalid, color: "#ff5370", textDecoration: "underline" },
]);

/** The editor in `parent`; `onChange(text)` after each edit, `onSave()` on Ctrl/Cmd-S. */
export function createEditor(parent, lang, text, { onChange, onSave }) {
  const saveKey = { key: "Mod-s", preventDefault: true, run: () => { onSave(); return true; } };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(),
        drawSelection(), indentOnInput(), bracketMatching(), closeBrackets(),
        highlightActiveLine(), highlightSelectionMatches(), lintGutter(),
        pslLanguage(lang), syntaxHighlighting(pslHighlight),
        keymap.of([saveKey, ...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap,
                   ...historyKeymap, ...lintKeymap, indentWithTab]),
        EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
      ],
    }),
  });
  return view;
}

export function getText(view) { return view.state.doc.toString(); }

export function setText(view, text) {
  const head = Math.min(view.state.selection.main.head, text.length);
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text },
                  selection: { anchor: head } });
}

/** Offset of a 1-based line and column (columns count characters), clamped to the text. */
function offsetOf(doc, line, column) {
  if (line > doc.lines) return doc.length;
  const l = doc.line(Math.max(1, line));
  return Math.min(l.from + Math.max(0, column - 1), l.to);
}

/** Show psl diagnostics (as JSON from /api/compile) as markers and in the list `listEl`. */
export function showDiagnostics(view, diagnostics, listEl) {
  const doc = view.state.doc;
  const marks = diagnostics.map((d) => {
    let from = offsetOf(doc, d.line, d.column);
    let to = Math.max(from, offsetOf(doc, d.end_line, d.end_column));
    if (to === from) {  // an empty span still needs a visible underline
      if (to < doc.length) to += 1; else if (from > 0) from -= 1;
    }
    // CodeMirror knows error, warning, info and hint; psl's other severities (note) -> info
    const severity = ["error", "warning"].includes(d.severity) ? d.severity : "info";
    return { from, to, severity, source: d.code,
             message: d.message + (d.hint ? `\nhelp: ${d.hint}` : "") };
  });
  view.dispatch(setDiagnostics(view.state, marks));

  listEl.replaceChildren(...diagnostics.map((d) => {
    const li = document.createElement("li");
    li.className = `diag ${d.severity}`;
    Object.assign(li.dataset, { code: d.code, line: d.line, column: d.column });
    const sev = document.createElement("span");
    sev.className = "sev";
    sev.textContent = `${d.severity}[${d.code}]`;
    li.append(`${d.line}:${d.column}: `, sev, `: ${d.message}`);
    if (d.hint) {
      const hint = document.createElement("span");
      hint.className = "hint";
      hint.textContent = ` (help: ${d.hint})`;
      li.append(hint);
    }
    li.addEventListener("click", () => {
      const pos = offsetOf(view.state.doc, d.line, d.column);
      view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
      view.focus();
    });
    return li;
  }));
}
