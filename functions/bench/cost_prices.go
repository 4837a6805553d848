package main

// The AWS list prices the cost part (docs/cost.md) uses: us-east-1, on
// demand, without the free tiers, as published on the pricing page named
// beside each. Each was checked on 28 November 2026 against the pricing
// page or published copies of it from 2025 and 2026 (CloudFront's own
// page; for the others, AWS's API Gateway whitepaper and pricing guides
// quoting the pages). The bench runs offline and does not fetch them.
const pricesAsOf = "June 2025, checked 28 November 2026"

const (
	// https://aws.amazon.com/lambda/pricing/ (Arm, the functions'
	// architecture): per GB-second of duration and per request.
	priceLambdaGBSecond     = 0.0000133334
	priceLambdaMillionCalls = 0.20
	// https://aws.amazon.com/api-gateway/pricing/ (REST APIs, the first
	// 333 million requests a month; a streamed answer is billed as a
	// request, as the others).
	priceAPIGatewayMillion = 3.50
	// https://aws.amazon.com/dynamodb/pricing/on-demand/ (since the
	// November 2024 reduction): per million write and read request units,
	// per GB-month stored, and per GB-month of point-in-time recovery
	// (the table has it on).
	priceDynamoMillionWrites = 0.625
	priceDynamoMillionReads  = 0.125
	priceDynamoGBMonth       = 0.25
	priceDynamoPITRGBMonth   = 0.20
	// https://aws.amazon.com/cloudfront/pricing/ (pay as you go, United
	// States and Europe): per GB out to the internet (the first 10 TB), per
	// 10,000 HTTPS requests, per million CloudFront Functions invocations
	// (every request runs one: the app's rewrite, the API's viewer
	// address).
	priceCloudFrontGB              = 0.085
	priceCloudFront10kRequests     = 0.0100
	priceCloudFrontFunctionMillion = 0.10
	// https://aws.amazon.com/secrets-manager/pricing/: per secret a month,
	// per 10,000 API calls.
	priceSecretMonth     = 0.40
	priceSecrets10kCalls = 0.05
	// https://aws.amazon.com/waf/pricing/: per web ACL a month, per rule
	// a month, per million requests inspected.
	priceWAFACLMonth  = 5.00
	priceWAFRuleMonth = 1.00
	priceWAFMillion   = 0.60
	// https://aws.amazon.com/kms/pricing/: per customer managed key a
	// month, per 10,000 requests.
	priceKMSKeyMonth    = 1.00
	priceKMS10kRequests = 0.03
)
