# ruff: noqa: E501
"""Starting contents of the files the session reads (Terraform module + Python Lambda, written for the heldout3 split)."""

LAMBDA_TF = '''data "archive_file" "thumbnailer" {
  type        = "zip"
  source_dir  = "${path.module}/src"
  output_path = "${path.module}/build/thumbnailer.zip"
}

resource "aws_lambda_function" "thumbnailer" {
  function_name    = "${var.prefix}-thumbnailer"
  role             = aws_iam_role.thumbnailer.arn
  runtime          = "python3.12"
  handler          = "handler.handle"
  architectures    = ["arm64"]
  filename         = data.archive_file.thumbnailer.output_path
  source_code_hash = data.archive_file.thumbnailer.output_base64sha256
  timeout          = 3
  memory_size      = 128

  environment {
    variables = {
      THUMB_WIDTH = "320"
    }
  }
}

resource "aws_lambda_permission" "s3" {
  statement_id  = "AllowS3Invoke"
  action        = "lambda:InvokeFunction"
  function_name = aws_lambda_function.thumbnailer.function_name
  principal     = "s3.amazonaws.com"
  source_arn    = aws_s3_bucket.media.arn
}

resource "aws_s3_bucket_notification" "media" {
  bucket = aws_s3_bucket.media.id

  lambda_function {
    lambda_function_arn = aws_lambda_function.thumbnailer.arn
    events              = ["s3:ObjectCreated:*"]
  }

  depends_on = [aws_lambda_permission.s3]
}
'''

HANDLER = '''"""S3 ObjectCreated -> a JPEG thumbnail next to the original."""

import io
import os
import urllib.parse

import boto3
from PIL import Image

s3 = boto3.client("s3")
WIDTH = int(os.environ.get("THUMB_WIDTH", "320"))


def thumb_key(key: str) -> str:
    return "thumbs/" + key


def handle(event, context):
    for record in event["Records"]:
        bucket = record["s3"]["bucket"]["name"]
        key = urllib.parse.unquote_plus(record["s3"]["object"]["key"])
        body = s3.get_object(Bucket=bucket, Key=key)["Body"].read()
        img = Image.open(io.BytesIO(body))
        img.thumbnail((WIDTH, WIDTH * 10))
        out = io.BytesIO()
        img.convert("RGB").save(out, "JPEG", quality=82)
        s3.put_object(Bucket=bucket, Key=thumb_key(key), Body=out.getvalue(), ContentType="image/jpeg")
'''

TEST_HANDLER = '''from handler import thumb_key


def test_thumb_key_keeps_the_path():
    assert thumb_key("uploads/2025/cat.png") == "thumbs/uploads/2025/cat.png"
'''

VERSIONS_TF = '''terraform {
  required_version = ">= 1.9"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.70"
    }
  }
}
'''
