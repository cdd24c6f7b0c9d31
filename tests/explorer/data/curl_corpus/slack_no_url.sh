# source: https://stackoverflow.com/questions/31905260/sending-json-to-slack-in-a-http-post-request (as asked: no URL)
curl -H "Content-type: application/json" -X POST -d '{"token":"my-token-here","channel":"#channel-name-or-id","text":"Text here.","username":"otherusername"}'
