# source: https://wyst.ai/fake-stripe/stripe/core-resources/customers (Stripe's API reference sample)
curl https://api.stripe.com/v1/customers \
  -u sk_test_4eC39HqLyjWDarjtT1zdp7dc: \
  -d email="customer@example.com" \
  -d source=tok_1234567890abcdef \
  -d description="Example customer"
