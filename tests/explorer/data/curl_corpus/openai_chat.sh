# source: https://platform.openai.com/docs/api-reference/introduction, as copied in github.com/ralatsdc/springbok-nlm-kn openai/first-api-request.sh
curl https://api.openai.com/v1/chat/completions \
  -H "Content-Type: application/json" \
  -H "Authorization: Bearer $OPENAI_API_KEY" \
  -d '{
     "model": "gpt-4-turbo",
     "messages": [{"role": "user", "content": "Say this is a test!"}],
     "temperature": 0.7
   }'
