"""The session's token charts, split by concern (the module was too long to read as one):

- calls.py: the model calls read from the Call rows, grouped past MAX_POINTS from the store's call blocks;
- compactions.py: the compactions read for the charts, with their calls before and retention;
- figures.py: plotly layout, figure dict and trace helpers shared by every chart;
- limits.py: the threshold and window step lines of the context chart;
- retention.py: the retention chart per compaction;
- panel.py: `build_charts`, which puts them together for the charts panel.

The limits tests lower (MAX_POINTS, MAX_COMPACTIONS, AUDITS_PER_VIEW, AUDIT_SECONDS) live in the
modules that read them and are deliberately not re-exported here: patching a copy on the package
would change nothing.
"""

from sessions_app.presenters.charts.calls import FAILED_STOPS, CallPoint, CallSeries, load_calls
from sessions_app.presenters.charts.compactions import ChartCompaction, ChartCompactions, compaction_calls
from sessions_app.presenters.charts.panel import X_AXES, Charts, build_charts
from sessions_app.presenters.charts.retention import retention_chart

__all__ = [
    "FAILED_STOPS",
    "X_AXES",
    "CallPoint",
    "CallSeries",
    "ChartCompaction",
    "ChartCompactions",
    "Charts",
    "build_charts",
    "compaction_calls",
    "load_calls",
    "retention_chart",
]
