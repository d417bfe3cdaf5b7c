//! The README's embedding example is the doc-tested one of the crate's documentation, line for line.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

/// The lines of the first code block after the line `heading`, with `prefix` cut from each line.
fn block_after(text: &str, heading: &str, prefix: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(|l| l.strip_prefix(prefix).unwrap_or(l)).collect();
    let at = lines.iter().position(|l| l.trim_end() == heading).unwrap_or_else(|| panic!("no line {heading:?}"));
    let open = at + lines[at..].iter().position(|l| l.starts_with("```")).expect("a code block after the heading");
    let len = lines[open + 1..].iter().position(|l| l.starts_with("```")).expect("the end of the code block");
    lines[open + 1..open + 1 + len].iter().map(|l| l.to_string()).collect()
}

#[test]
fn the_readme_embedding_example_is_the_doc_tested_one() {
    let readme = block_after(include_str!("../../README.md"), "Then search a position in ten lines:", "");
    let docs = block_after(include_str!("../src/lib.rs"), "# Embedding in ten lines", "//! ");
    let docs: Vec<String> = docs.into_iter().map(|l| if l == "//!" { String::new() } else { l }).collect();
    assert!(readme.len() <= 10 && readme.len() >= 5, "{} lines", readme.len());
    assert_eq!(readme, docs);
}
