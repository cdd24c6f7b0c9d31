# source: https://agenticemail.dev/blog/sendgrid-api-send-email (SendGrid v3 Mail Send)
curl -X POST https://api.sendgrid.com/v3/mail/send \
-H "Authorization: Bearer $SENDGRID_API_KEY" \
-H "Content-Type: application/json" \
-d '{
"personalizations": [{ "to": [{ "email": "recipient@example.com" }] }],
"from": { "email": "you@yourdomain.com" },
"subject": "Hello from the SendGrid API",
"content": [{ "type": "text/plain", "value": "Sent with the SendGrid v3 Mail Send API." }]
}'
