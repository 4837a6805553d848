package stack

import (
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigateway"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudfront"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudfrontorigins"
	"github.com/aws/aws-cdk-go/awscdk/v2/awss3"
	"github.com/aws/aws-cdk-go/awscdk/v2/awss3assets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awss3deployment"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"aiwork/shared/httpx"
	"aiwork/shared/httpx/secheaders"
	"aiwork/shared/routes"
)

// APIPathPattern is the CloudFront behaviour that reaches the REST API.
const APIPathPattern = "/api/*"

// RegistryPathPattern is the behaviour of the registry API (routes.
// RegistryPrefix), listed before APIPathPattern, which it narrows: the
// same origin, secret, function and WAF, but answers cached at the edge.
const RegistryPathPattern = routes.RegistryPrefix + "*"

// RegistryCacheSeconds is how long the edge keeps a registry answer: at
// most what the answer's Cache-Control allows (registryapi.CacheControl),
// each query string apart.
const RegistryCacheSeconds = 60

// APIReadTimeoutSeconds is how long CloudFront waits for the API's first
// byte and between two chunks of a streamed reply. It outlasts the chat's
// 30 s stall timeout and stays within the default CloudFront quota.
const APIReadTimeoutSeconds = 60

// SPARewriteCode sends every path whose last segment has no dot to
// /index.html, so the app's client-side routes load; files keep their path.
// API responses are never rewritten: this runs on the S3 behaviour only.
const SPARewriteCode = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`

// ForwardedHostCode copies the viewer's Host into x-forwarded-host (any
// value the viewer sent is replaced) so the API can build public URLs: the
// origin request policy sends API Gateway its own Host. It also writes the
// viewer's address into x-viewer-address for the per-address throttles
// (API Gateway's sourceIp is the CloudFront edge), and drops any
// x-origin-secret the viewer sent: only the origin's custom header (the
// OriginSecret) may reach the API. The API trusts the first two only on a
// request carrying that secret (httpx.RequireOrigin).
const ForwardedHostCode = `function handler(event) {
  var request = event.request;
  request.headers['x-forwarded-host'] = { value: request.headers.host.value };
  request.headers['x-viewer-address'] = { value: event.viewer.ip };
  delete request.headers['x-origin-secret'];
  return request;
}`

type siteProps struct {
	WebappDir string
	API       awsapigateway.RestApi
	Analytics bool
	// OriginSecret is sent to the API in X-Origin-Secret on every request
	// (SecretOrigin). CloudFormation resolves it at deploy into the
	// distribution's origin configuration (a dynamic reference: the value
	// is in neither the template nor the cloud assembly).
	OriginSecret awssecretsmanager.ISecret
	// LogBucket receives CloudFront's and the site bucket's access logs.
	LogBucket awss3.IBucket
	// Domain and CertificateARN: the site's own name (domain.go); empty,
	// the default *.cloudfront.net name.
	Domain, CertificateARN string
}

// newSite is the private bucket holding the web app and the CloudFront
// distribution in front of it and of the API.
func newSite(scope constructs.Construct, p siteProps) awscloudfront.Distribution {
	bucket := awss3.NewBucket(scope, jsii.String("SiteBucket"), &awss3.BucketProps{
		BlockPublicAccess: awss3.BlockPublicAccess_BLOCK_ALL(),
		EnforceSSL:        jsii.Bool(true),
		Encryption:        awss3.BucketEncryption_S3_MANAGED,
		ObjectOwnership:   awss3.ObjectOwnership_BUCKET_OWNER_ENFORCED,
		Versioned:         jsii.Bool(false),
		// Reads come from CloudFront (logged at the edge) and writes from
		// the deploy; these logs show any other access to the bucket.
		ServerAccessLogsBucket: p.LogBucket,
		ServerAccessLogsPrefix: jsii.String(SiteBucketLogPrefix),
		// The content is rebuilt from webapp/dist on every deploy.
		RemovalPolicy:     awscdk.RemovalPolicy_DESTROY,
		AutoDeleteObjects: jsii.Bool(true),
	})

	headers := securityHeaders(scope, p.Analytics)
	siteOrigin := awscloudfrontorigins.S3BucketOrigin_WithOriginAccessControl(bucket, nil)

	spa := awscloudfront.NewFunction(scope, jsii.String("SpaRewrite"), &awscloudfront.FunctionProps{
		Comment: jsii.String("Client-side routes: paths without a file extension get /index.html"),
		Code:    awscloudfront.FunctionCode_FromInline(jsii.String(SPARewriteCode)),
		Runtime: awscloudfront.FunctionRuntime_JS_2_0(),
	})
	forwardedHost := awscloudfront.NewFunction(scope, jsii.String("ForwardedHost"), &awscloudfront.FunctionProps{
		Comment: jsii.String("Viewer Host into x-forwarded-host for the API"),
		Code:    awscloudfront.FunctionCode_FromInline(jsii.String(ForwardedHostCode)),
		Runtime: awscloudfront.FunctionRuntime_JS_2_0(),
	})

	distProps := &awscloudfront.DistributionProps{
		Comment:           jsii.String(*awscdk.Stack_Of(scope).StackName() + " web app and API"),
		DefaultRootObject: jsii.String("index.html"),
		HttpVersion:       awscloudfront.HttpVersion_HTTP2_AND_3,
		// Standard access logs: one line per viewer request, for abuse and
		// incident investigation (cookies left out).
		EnableLogging: jsii.Bool(true),
		LogBucket:     p.LogBucket,
		LogFilePrefix: jsii.String(CloudFrontLogPrefix),
		DefaultBehavior: &awscloudfront.BehaviorOptions{
			Origin:                siteOrigin,
			ViewerProtocolPolicy:  awscloudfront.ViewerProtocolPolicy_REDIRECT_TO_HTTPS,
			AllowedMethods:        awscloudfront.AllowedMethods_ALLOW_GET_HEAD(),
			CachePolicy:           awscloudfront.CachePolicy_CACHING_OPTIMIZED(),
			Compress:              jsii.Bool(true),
			ResponseHeadersPolicy: headers,
			FunctionAssociations: &[]*awscloudfront.FunctionAssociation{
				{Function: spa, EventType: awscloudfront.FunctionEventType_VIEWER_REQUEST},
			},
		},
		AdditionalBehaviors: &map[string]*awscloudfront.BehaviorOptions{
			// The MCP Apps sandbox page, a file of the web app, with its own
			// headers instead of the site's: the product's pages frame it,
			// and its CSP is the ceiling of the server views it renders. It
			// is a file, so no client-side route rewrite.
			secheaders.SandboxPath: {
				Origin:                siteOrigin,
				ViewerProtocolPolicy:  awscloudfront.ViewerProtocolPolicy_REDIRECT_TO_HTTPS,
				AllowedMethods:        awscloudfront.AllowedMethods_ALLOW_GET_HEAD(),
				CachePolicy:           awscloudfront.CachePolicy_CACHING_OPTIMIZED(),
				Compress:              jsii.Bool(true),
				ResponseHeadersPolicy: sandboxHeaders(scope),
			},
		},
	}
	siteDomain(scope, p.Domain, p.CertificateARN, distProps)
	dist := awscloudfront.NewDistribution(scope, jsii.String("Site"), distProps)

	// The API's two behaviours, added in this order: CloudFront takes the
	// first pattern that matches, and the registry's narrows /api/*.
	apiOrigin := awscloudfrontorigins.NewRestApiOrigin(p.API, &awscloudfrontorigins.RestApiOriginProps{
		ReadTimeout:   awscdk.Duration_Seconds(jsii.Number(APIReadTimeoutSeconds)),
		CustomHeaders: &map[string]*string{httpx.OriginSecretHeader: p.OriginSecret.SecretValue().UnsafeUnwrap()},
	})
	viewerRequest := &[]*awscloudfront.FunctionAssociation{
		{Function: forwardedHost, EventType: awscloudfront.FunctionEventType_VIEWER_REQUEST},
	}
	// The registry API: public, read-only answers kept at the edge for a
	// short time, one per query string, compressed there; preflights go
	// through; any site may read it (CORS on every answer, the WAF's and
	// API Gateway's own too). The viewer-request function runs as on
	// /api/*: the WAF counts the viewer's address and the API checks the
	// origin secret.
	dist.AddBehavior(jsii.String(RegistryPathPattern), apiOrigin, &awscloudfront.AddBehaviorOptions{
		ViewerProtocolPolicy:  awscloudfront.ViewerProtocolPolicy_HTTPS_ONLY,
		AllowedMethods:        awscloudfront.AllowedMethods_ALLOW_GET_HEAD_OPTIONS(),
		CachedMethods:         awscloudfront.CachedMethods_CACHE_GET_HEAD(),
		CachePolicy:           registryCachePolicy(scope),
		OriginRequestPolicy:   awscloudfront.OriginRequestPolicy_ALL_VIEWER_EXCEPT_HOST_HEADER(),
		ResponseHeadersPolicy: registryHeaders(scope, p.Analytics),
		Compress:              jsii.Bool(true),
		FunctionAssociations:  viewerRequest,
	})
	dist.AddBehavior(jsii.String(APIPathPattern), apiOrigin, &awscloudfront.AddBehaviorOptions{
		// HTTPS only: a redirect would turn a POST into a GET and
		// the request would already have crossed in the clear.
		ViewerProtocolPolicy: awscloudfront.ViewerProtocolPolicy_HTTPS_ONLY,
		AllowedMethods:       awscloudfront.AllowedMethods_ALLOW_ALL(),
		// With caching disabled, this origin request policy forwards
		// every viewer header (Authorization and cookies included)
		// except Host, which API Gateway needs to be its own.
		CachePolicy:           awscloudfront.CachePolicy_CACHING_DISABLED(),
		OriginRequestPolicy:   awscloudfront.OriginRequestPolicy_ALL_VIEWER_EXCEPT_HOST_HEADER(),
		ResponseHeadersPolicy: headers,
		Compress:              jsii.Bool(false), // streamed replies pass through as they come
		FunctionAssociations:  viewerRequest,
	})

	// Hashed build files first (kept across deploys, so a browser holding
	// the previous index.html still finds its chunks), then the rest with
	// revalidation; the second one prunes everything but assets/.
	// The build's .br and .gz copies are for the devserver: CloudFront
	// compresses by itself (Compress on the default behaviour, whose
	// CachingOptimized policy keys the cache on gzip and brotli).
	src := awss3deployment.Source_Asset(jsii.String(p.WebappDir), &awss3assets.AssetOptions{Exclude: jsii.Strings("*.br", "*.gz")})
	assets := awss3deployment.NewBucketDeployment(scope, jsii.String("SiteAssets"), &awss3deployment.BucketDeploymentProps{
		DestinationBucket: bucket,
		Sources:           &[]awss3deployment.ISource{src},
		Exclude:           jsii.Strings("*"),
		Include:           jsii.Strings("assets/*"),
		Prune:             jsii.Bool(false),
		CacheControl: &[]awss3deployment.CacheControl{
			awss3deployment.CacheControl_FromString(jsii.String("public, max-age=31536000, immutable")),
		},
		MemoryLimit: jsii.Number(512),
	})
	// robots.txt and sitemap.xml name the site's address, known here (the
	// own domain, or the distribution's, a deploy-time value the deployment
	// writes in), not to the build: written by the deploy, from the lists
	// the devserver serves (httpx.RobotsTxt, httpx.SitemapXML).
	siteURL := "https://" + p.Domain
	if p.Domain == "" {
		siteURL = *awscdk.Fn_Join(jsii.String(""), &[]*string{jsii.String("https://"), dist.DistributionDomainName()})
	}
	pages := awss3deployment.NewBucketDeployment(scope, jsii.String("SitePages"), &awss3deployment.BucketDeploymentProps{
		DestinationBucket: bucket,
		Sources: &[]awss3deployment.ISource{src,
			awss3deployment.Source_Data(jsii.String("robots.txt"), jsii.String(httpx.RobotsTxt(siteURL)), nil),
			awss3deployment.Source_Data(jsii.String("sitemap.xml"), jsii.String(httpx.SitemapXML(siteURL)), nil),
		},
		Exclude: jsii.Strings("assets/*"),
		Prune:   jsii.Bool(true),
		CacheControl: &[]awss3deployment.CacheControl{
			awss3deployment.CacheControl_FromString(jsii.String("no-cache")),
		},
		Distribution:      dist,
		DistributionPaths: jsii.Strings("/*"),
		MemoryLimit:       jsii.Number(512),
	})
	pages.Node().AddDependency(assets)
	return dist
}

// securityHeaders is the response headers policy of every behaviour, from
// the values the devserver sends too (aiwork/shared/httpx/secheaders).
func securityHeaders(scope constructs.Construct, analytics bool) awscloudfront.ResponseHeadersPolicy {
	return awscloudfront.NewResponseHeadersPolicy(scope, jsii.String("SecurityHeaders"), &awscloudfront.ResponseHeadersPolicyProps{
		Comment:                 jsii.String("CSP, HSTS, nosniff, referrer policy, no framing"),
		SecurityHeadersBehavior: siteSecurityHeaders(analytics),
	})
}

// siteSecurityHeaders are the site's security headers.
func siteSecurityHeaders(analytics bool) *awscloudfront.ResponseSecurityHeadersBehavior {
	return &awscloudfront.ResponseSecurityHeadersBehavior{
		ContentSecurityPolicy: &awscloudfront.ResponseHeadersContentSecurityPolicy{
			ContentSecurityPolicy: jsii.String(secheaders.ContentSecurityPolicy(analytics, true)), Override: jsii.Bool(true),
		},
		StrictTransportSecurity: &awscloudfront.ResponseHeadersStrictTransportSecurity{
			AccessControlMaxAge: awscdk.Duration_Seconds(jsii.Number(secheaders.HSTSMaxAge.Seconds())),
			IncludeSubdomains:   jsii.Bool(secheaders.HSTSIncludeSubdomains), Override: jsii.Bool(true),
		},
		ContentTypeOptions: &awscloudfront.ResponseHeadersContentTypeOptions{Override: jsii.Bool(true)}, // nosniff
		ReferrerPolicy: &awscloudfront.ResponseHeadersReferrerPolicy{
			ReferrerPolicy: awscloudfront.HeadersReferrerPolicy(headerEnum(secheaders.ReferrerPolicy)), Override: jsii.Bool(true),
		},
		FrameOptions: &awscloudfront.ResponseHeadersFrameOptions{
			FrameOption: awscloudfront.HeadersFrameOption(headerEnum(secheaders.FrameOptions)), Override: jsii.Bool(true),
		},
	}
}

// registryHeaders is the registry API's response headers policy: the
// site's security headers, and CORS for any origin (no credentials), so
// that an answer the API itself did not write (the WAF's 429, API
// Gateway's own errors) is readable from a browser too. The API's own
// CORS headers stand (no override): they say the same.
func registryHeaders(scope constructs.Construct, analytics bool) awscloudfront.ResponseHeadersPolicy {
	return awscloudfront.NewResponseHeadersPolicy(scope, jsii.String("RegistryHeaders"), &awscloudfront.ResponseHeadersPolicyProps{
		Comment:                 jsii.String("Registry API: the site's security headers, CORS for any origin"),
		SecurityHeadersBehavior: siteSecurityHeaders(analytics),
		CorsBehavior: &awscloudfront.ResponseHeadersCorsBehavior{
			AccessControlAllowCredentials: jsii.Bool(false),
			AccessControlAllowOrigins:     jsii.Strings("*"),
			AccessControlAllowMethods:     jsii.Strings("GET", "HEAD", "OPTIONS"),
			AccessControlAllowHeaders:     jsii.Strings("Accept", "Content-Type", "If-None-Match", "Authorization"),
			AccessControlExposeHeaders:    jsii.Strings("ETag"),
			AccessControlMaxAge:           awscdk.Duration_Seconds(jsii.Number(86400)),
			OriginOverride:                jsii.Bool(false),
		},
	})
}

// registryCachePolicy keeps registry answers at the edge for
// RegistryCacheSeconds at most, as their Cache-Control allows (errors say
// no-store), one per query string; no header or cookie is in the key: the
// answers are public. Compressed copies are kept apart.
func registryCachePolicy(scope constructs.Construct) awscloudfront.CachePolicy {
	ttl := awscdk.Duration_Seconds(jsii.Number(RegistryCacheSeconds))
	return awscloudfront.NewCachePolicy(scope, jsii.String("RegistryCache"), &awscloudfront.CachePolicyProps{
		Comment:                    jsii.String("Registry API: a short edge cache per query string"),
		DefaultTtl:                 ttl,
		MaxTtl:                     ttl,
		MinTtl:                     awscdk.Duration_Seconds(jsii.Number(0)),
		QueryStringBehavior:        awscloudfront.CacheQueryStringBehavior_All(),
		HeaderBehavior:             awscloudfront.CacheHeaderBehavior_None(),
		CookieBehavior:             awscloudfront.CacheCookieBehavior_None(),
		EnableAcceptEncodingGzip:   jsii.Bool(true),
		EnableAcceptEncodingBrotli: jsii.Bool(true),
	})
}

// sandboxHeaders is the response headers policy of the MCP Apps sandbox
// page alone (secheaders.SandboxPath), from the values the devserver sends
// on that path, without its http: sources: the page's CSP, framing by the
// site's own pages only, nosniff, no referrer, and HSTS as everywhere.
func sandboxHeaders(scope constructs.Construct) awscloudfront.ResponseHeadersPolicy {
	return awscloudfront.NewResponseHeadersPolicy(scope, jsii.String("SandboxHeaders"), &awscloudfront.ResponseHeadersPolicyProps{
		Comment: jsii.String("MCP Apps sandbox page: its CSP, HSTS, nosniff, no referrer, framed by the site only"),
		SecurityHeadersBehavior: &awscloudfront.ResponseSecurityHeadersBehavior{
			ContentSecurityPolicy: &awscloudfront.ResponseHeadersContentSecurityPolicy{
				ContentSecurityPolicy: jsii.String(secheaders.SandboxContentSecurityPolicy(false)), Override: jsii.Bool(true),
			},
			StrictTransportSecurity: &awscloudfront.ResponseHeadersStrictTransportSecurity{
				AccessControlMaxAge: awscdk.Duration_Seconds(jsii.Number(secheaders.HSTSMaxAge.Seconds())),
				IncludeSubdomains:   jsii.Bool(secheaders.HSTSIncludeSubdomains), Override: jsii.Bool(true),
			},
			ContentTypeOptions: &awscloudfront.ResponseHeadersContentTypeOptions{Override: jsii.Bool(true)}, // nosniff
			ReferrerPolicy: &awscloudfront.ResponseHeadersReferrerPolicy{
				ReferrerPolicy: awscloudfront.HeadersReferrerPolicy(headerEnum(secheaders.SandboxReferrerPolicy)), Override: jsii.Bool(true),
			},
			FrameOptions: &awscloudfront.ResponseHeadersFrameOptions{
				FrameOption: awscloudfront.HeadersFrameOption(headerEnum(secheaders.SandboxFrameOptions)), Override: jsii.Bool(true),
			},
		},
	})
}

// headerEnum names a header value the way the CDK's enums do, in upper snake case.
func headerEnum(v string) string { return strings.ToUpper(strings.ReplaceAll(v, "-", "_")) }
