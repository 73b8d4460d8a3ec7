"""Reusable widgets: the list editor and its cells and costs, the two-column name | value tree,
catalog item drags and facts, finding marks, the record sheet's PDF view."""
