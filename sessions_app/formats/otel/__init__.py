"""OpenTelemetry GenAI spans, both ways (docs/telemetry.md). No Django.

Shared: `schema` (every attribute name), `parts` (content blocks → GenAI message parts).

Export (stored sessions → spans): `stored` (the session, runs, compactions and nodes the writer is
handed), `contexts` (the context each model call received, built incrementally), `writer` (nodes
→ traces), `spans` (the span descriptions it produces, their ids and times), `sdk` (replaying
them through the official SDK).

Import (spans → sessions): `reader` (OTLP/JSON or protobuf → span records), `conversations`
(grouping spans by conversation), `messages` (GenAI messages → node units), `values` (typed
readings of attribute values), `span_nodes` (what one span gives a node), `own_spans` (the nodes
Cutpoint's own spans name), `rebuild` (one conversation → the tree) and `results` (what a rebuild
produces, and the state it continues from).
"""
