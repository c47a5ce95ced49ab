"""View models for the dashboard: shape stored rows and engine results for templates.

No compaction logic lives here: the engine (`sessions_app.compaction`) decides, these modules only
lay out what it returns (tree rows, token-proportional segments, plotly figure dicts).
"""
