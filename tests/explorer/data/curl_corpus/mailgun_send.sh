# source: https://documentation.mailgun.com/docs/mailgun/user-manual/sending-messages/send-http
curl -s --user 'api:YOUR_API_KEY' \
https://api.mailgun.net/v3/YOUR_DOMAIN_NAME/messages \
-F from='Excited User <postmaster@YOUR_DOMAIN_NAME>' \
-F to=recipient-1@example.com \
-F to=recipient-2@example.com \
-F subject='Hello there!' \
-F text='Testing some Mailgun awesomeness!'
