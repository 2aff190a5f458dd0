CREATE TABLE "user_strategies" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"rules" jsonb NOT NULL,
	"stop_loss_pct" numeric(10, 4),
	"take_profit_pct" numeric(10, 4),
	"trailing_stop_pct" numeric(10, 4),
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_strategies" ADD CONSTRAINT "user_strategies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_strategies_user_idx" ON "user_strategies" USING btree ("user_id");