"""One open design's tab: the step pages beside the panels and the preview (documentview), which
step pages a design gets, the splitters' sizes, and the Alt+letter keys given out across it; an
open roster's tab (rosterpage)."""
