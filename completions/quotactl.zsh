#compdef quotactl

_quotactl_completion() {
  eval $(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" _QUOTACTL_COMPLETE=complete_zsh quotactl)
}

compdef _quotactl_completion quotactl
