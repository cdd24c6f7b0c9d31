# source: https://wyst.ai/fake-twilio/twilio/communication-apis/programmable-sms (Twilio's sample)
curl -X POST https://api.twilio.com/2010-04-01/Accounts/YOUR_ACCOUNT_SID/Messages.json \
--data-urlencode "To=+1XXXXXXXXXX" \
--data-urlencode "From=+1YYYYYYYYYY" \
--data-urlencode "Body=Your appointment is coming up on July 21 at 3PM" \
-u YOUR_ACCOUNT_SID:YOUR_AUTH_TOKEN
