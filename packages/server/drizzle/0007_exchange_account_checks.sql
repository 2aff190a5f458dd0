ALTER TABLE "exchange_accounts" ADD COLUMN "last_error_kind" text;--> statement-breakpoint
ALTER TABLE "exchange_accounts" ADD COLUMN "last_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exchange_accounts" ADD COLUMN "last_check_ok" boolean;--> statement-breakpoint
ALTER TABLE "exchange_accounts" ADD COLUMN "is_experience" boolean DEFAULT false NOT NULL;