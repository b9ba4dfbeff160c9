// Package guardpage gives tests of the assembly scanners a page of memory
// between two inaccessible pages (Linux only): a slice placed at either
// edge of it faults on any load that strays outside the page.
package guardpage
