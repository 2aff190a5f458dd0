CREATE TABLE "optimisations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"request" jsonb NOT NULL,
	"strategy_type" text NOT NULL,
	"source" text NOT NULL,
	"candle_count" integer NOT NULL,
	"windows" jsonb NOT NULL,
	"combination_count" integer NOT NULL,
	"completed_count" integer DEFAULT 0 NOT NULL,
	"skipped" jsonb NOT NULL,
	"results" jsonb NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "optimisations" ADD CONSTRAINT "optimisations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "optimisations_user_idx" ON "optimisations" USING btree ("user_id","id");