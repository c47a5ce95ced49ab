"""The agent runtime: agent definitions, roles/modes/policy, tools and artifacts, the agent loop,
and the compact fork (`compact_fork`).

Entry points for the loop:

    agents.resolve_definition(name, project_dir, internal=...) -> AgentDefinition
    policy.load_policy(defn.permission_rules) -> Policy
    policy.effective_tools(defn.tools, role, mode, policy) -> tuple[str, ...]
    tools.registry.tool_specs(effective, wire=True) -> list[ToolSpec]
    tools.registry.run_tool_call(name, arguments, ctx, effective, policy) -> ToolResult
    artifacts.attach_artifact(result.artifact_id, node_id)

Submodules are imported directly; this package imports nothing so that loading one piece does not
pull in Django models before the app registry is ready.
"""
