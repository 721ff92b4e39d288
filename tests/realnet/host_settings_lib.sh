# The host-wide settings a realnet run could touch (issue 15): the initial namespace's socket
# buffer caps, its TCP stack sysctls and forwarding. The launcher sets TCP stacks only inside
# the namespaces it creates (per-namespace sysctls) and sizes buffers with SO_SNDBUFFORCE /
# SO_RCVBUFFORCE, so none of these may change; host_settings.sh and the suite's
# realnet:host_settings_unchanged check it.
host_settings() {
  local key
  for key in net.core.rmem_max net.core.wmem_max net.core.rmem_default net.core.wmem_default \
             net.ipv4.tcp_rmem net.ipv4.tcp_wmem net.ipv4.tcp_window_scaling net.ipv4.tcp_sack \
             net.ipv4.tcp_no_metrics_save net.ipv4.tcp_congestion_control net.ipv4.ip_forward \
             net.ipv4.tcp_syn_retries net.ipv4.tcp_syn_linear_timeouts; do
    printf '%s = %s\n' "$key" "$(sysctl -n "$key" 2>/dev/null | tr '\t' ' ' || echo '(absent)')"
  done
}

# Fails naming every setting that differs from the snapshot in FILE.
expect_host_settings() {  # FILE WHEN
  local now
  now=$(host_settings)
  if [ "$now" != "$(cat "$1")" ]; then
    diff <(cat "$1") <(echo "$now") >&2 || true
    fail "host-wide settings changed $2 (before: <, after: >)"
  fi
  echo "ok: host-wide settings unchanged $2"
}
