"""Small widgets and helpers that know no design: finding marks, the two-column name | value tree,
catalog item drags and facts, where windows open and how they close, a page that scrolls, what
to do next on an empty list, the clock the editor's delays run on, the watch on open files and the
bar a tab shows when its file changed on disk. The bottom of the editor."""
