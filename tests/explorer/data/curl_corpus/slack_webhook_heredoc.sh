# source: https://agent-skills.md/skills/vm0-ai/vm0-skills/slack-webhook
curl -s -X POST $SLACK_WEBHOOK_URL -H "Content-type: application/json" -d @- << 'EOF'
{"text":"Deploy completed! :rocket:"}
EOF
